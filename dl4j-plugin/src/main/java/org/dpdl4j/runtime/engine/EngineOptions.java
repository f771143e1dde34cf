package org.dpdl4j.runtime.engine;

import static org.dpdl4j.runtime.options.ResumeRule.FREE;

import java.util.List;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/**
 * Where a run's rounds are computed. They never change what a run computes (a run may be resumed on another engine),
 * so they are kept out of the run's settings and checkpoint.
 */
public final class EngineOptions {
    private EngineOptions() {
    }

    public static final RunOption<String> ENGINE = RunOption.of("engine", "ENGINE",
            ValueType.checked("local or the name of an installed engine, e.g. spark", RunEngines::checkName), FREE,
            "Where the rounds run: local (default; one process, the parties as rows of one tensor) or spark (the parties"
                    + " split into blocks over a Spark cluster; the decentralized and federated protocols).");
    public static final RunOption<String> MASTER = RunOption.of("master", "URL", ValueType.checked("a Spark master URL", MasterUrl::check), FREE,
            "With --engine spark: the cluster, local[N] (N threads in this process) or spark://HOST:PORT (a standalone"
                    + " cluster); default: the spark.master property (as spark-submit sets it), else local[*].");
    public static final RunOption<Long> BLOCKS = RunOption.of("blocks", "K", ValueType.integer(1, 1_000_000), FREE,
            "With --engine spark: split the parties into K blocks (at most one per party); default: one per core the"
                    + " cluster offers.");

    public static final RunOption<String> DEVICE = RunOption.of("device", "DEVICE",
            ValueType.checked("auto, cpu or cuda", text -> ComputeDevice.parse(text).label()), FREE,
            "Where dp-sgd clips per example: auto (default: dpdl4j's CUDA engine when a usable GPU and the CUDA 13 libraries"
                    + " are there and it computes the network, else the CPU), cpu, or cuda (refused, saying what is"
                    + " missing, when it cannot run).");

    /** Every engine option. */
    public static List<RunOption<?>> all() {
        return List.of(ENGINE, MASTER, BLOCKS, DEVICE);
    }
}
