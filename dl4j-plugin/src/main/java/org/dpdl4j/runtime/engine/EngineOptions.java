package org.dpdl4j.runtime.engine;

import static org.dpdl4j.runtime.options.ResumeRule.FREE;

import java.util.List;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/**
 * Where a run's rounds are computed: the engine and the device, and, declared by each installed engine itself, its
 * own options (e.g. Spark's master and blocks). They never change what a run computes (a run may be resumed on another engine),
 * so they are kept out of the run's settings and checkpoint.
 */
public final class EngineOptions {
    private EngineOptions() {
    }

    public static final RunOption<String> ENGINE = RunOption.of("engine", "ENGINE",
            ValueType.checked("local or the name of an installed engine, e.g. spark", RunEngines::checkName), FREE,
            "Where the rounds run: local (default; one process, the parties as rows of one tensor) or spark (the parties"
                    + " split into blocks over a Spark cluster; the protocols that declare it, such as the decentralized and"
                    + " federated ones).");
    public static final RunOption<String> DEVICE = RunOption.of("device", "DEVICE",
            ValueType.checked("auto, cpu, cuda or cuda:N", text -> ComputeDevice.parse(text).label()), FREE,
            "Where dp-sgd clips per example, where the decentralized protocols (D-SGD, Decor, LDP, CDP) run their"
                    + " rounds with every node model on the GPU, where FedAvg, DP-FedAvg and GOPA run their clients' local"
                    + " steps, and where DP-mu^2-FL's machines take their gradients and keep their estimates (with --engine"
                    + " spark, where each block of a decentralized, FedAvg-family or DP-mu^2-FL run computes, chosen on its executor: the"
                    + " GPU Spark assigned to the task that opens it, else block k on GPU k modulo the executor's): auto (default: dpdl4j's"
                    + " CUDA engine when a usable GPU and the"
                    + " CUDA 13 libraries are there and it computes the network, else the CPU), cpu, cuda (the first usable"
                    + " GPU), or cuda:N (GPU N as CUDA numbers them, which doctor lists; not with --engine spark, whose"
                    + " blocks take the GPUs Spark assigns); cuda and cuda:N are refused, saying what is missing, when"
                    + " they cannot run.");

    /** Every engine option: {@code --engine}, {@code --device} and the options every installed engine declares. */
    public static List<RunOption<?>> all() {
        List<RunOption<?>> out = new java.util.ArrayList<>(List.of(ENGINE, DEVICE));
        RunEngines.installed().forEach(e -> out.addAll(e.options()));
        return out;
    }
}
