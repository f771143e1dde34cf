package org.dpdl4j.spark;

import static org.dpdl4j.runtime.options.ResumeRule.FREE;

import java.util.List;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/**
 * The options of {@code --engine spark}, declared by the engine itself ({@link SparkEngine#options()}), so that the
 * core knows no cluster. Like every engine option they never change what a run computes, so they are kept out of its
 * settings and checkpoint.
 */
public final class SparkOptions {
    private SparkOptions() {
    }

    public static final RunOption<String> MASTER = RunOption.of("master", "URL", ValueType.checked("a Spark master URL", MasterUrl::check), FREE,
            "With --engine spark: the cluster, local[N] (N threads in this process) or spark://HOST:PORT (a standalone"
                    + " cluster); default: the spark.master property (as spark-submit sets it), else local[*].");
    public static final RunOption<Long> BLOCKS = RunOption.of("blocks", "K", ValueType.integer(1, 1_000_000), FREE,
            "With --engine spark: split the parties into K blocks (at most one per party); default: one per core the"
                    + " cluster offers.");

    /** Every option of the Spark engine. */
    public static List<RunOption<?>> all() {
        return List.of(MASTER, BLOCKS);
    }
}
