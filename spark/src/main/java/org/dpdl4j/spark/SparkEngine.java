package org.dpdl4j.spark;

import org.dpdl4j.runtime.engine.BlockEngine;
import org.dpdl4j.runtime.engine.RunEngine;
import java.util.List;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;

/** {@code --engine spark}: the run's parties in blocks on a Spark cluster ({@code --master}, {@code --blocks}). */
public final class SparkEngine implements RunEngine {

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public String summary() {
        return "the parties split into blocks over a Spark cluster (--master local[N] or spark://HOST:PORT)";
    }

    @Override
    public List<RunOption<?>> options() {
        return SparkOptions.all();
    }

    @Override
    public BlockEngine connect(RunSettings settings, String purpose) {
        return SparkBlocks.connect(SparkSettings.of(settings), purpose);
    }
}
