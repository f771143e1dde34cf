package org.dpdl4j.experiments.workload;

import static org.dpdl4j.runtime.options.RunOptions.BATCH_SIZE;
import static org.dpdl4j.runtime.options.RunOptions.EPOCHS;
import static org.dpdl4j.runtime.options.RunOptions.LEARNING_RATE;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;

import java.util.List;
import org.dpdl4j.protocol.central.CentralOptions;
import org.dpdl4j.protocol.decentralized.DecentralizedOptions;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The defaults that depend on the data set (the values the project's baselines and the papers' workloads use):
 * central training's epochs, batch, learning rate and updater; the decentralized papers' rounds, per-node batch,
 * learning-rate decay and protected unit. Only options the chosen protocol reads are filled in, and only when the
 * user did not give them.
 */
public final class WorkloadDefaults {
    private WorkloadDefaults() {
    }

    /**
     * @param centralRate the learning rate of central training
     * @param rate        the learning rate of the other protocols (Decor's table)
     */
    private record Defaults(String updater, double epochs, long batchSize, double centralRate, double rate, long rounds,
                            long nodeBatch, String unit, double learningRateDecay) {
    }

    private static Defaults of(String dataset) {
        return switch (dataset) {
            case "mnist" -> new Defaults("sgd", 20, 64, 0.1, 0.1, 1000, 64, "example", 5000);
            case "a9a" -> new Defaults("sgd", 10, 64, 0.1, 0.1, 5000, 64, "user", 5000);
            case "covtype", "covtype-20k" -> new Defaults("adam", 40, 256, 0.01, 0.01, 5000, 64, "user", 5000);
            case "synthetic-lsq" -> new Defaults("sgd", 500, 0, 0.2, 1.668e-3, 3500, 0, "user", 0);
            // 100 ticks per user of the default 100 users
            case "collaborative" -> new Defaults("sgd", 1, 0, 0.1, 0.1, 10_000, 0, "user", 0);
            default -> throw new IllegalArgumentException("unknown data set '" + dataset
                    + "'; use mnist, a9a, covtype, covtype-20k, synthetic-lsq or collaborative");
        };
    }

    /**
     * The settings with the data set's defaults added for what the protocol reads and the user left out.
     *
     * @param trainSize the number of training examples (the full batch of the synthetic task's central training)
     */
    public static RunSettings apply(RunSettings settings, Protocol protocol, String dataset, long trainSize) {
        Defaults d = of(dataset);
        boolean central = protocol.family().equals("central");
        boolean synthetic = dataset.equals("synthetic-lsq");
        boolean decentralized = protocol.family().equals("decentralized");
        List<RunOption<?>> reads = protocol.options();
        RunSettings s = settings;
        if (reads.contains(LEARNING_RATE)) {
            s = s.withDefault(LEARNING_RATE, central ? d.centralRate : d.rate);
        }
        if (central) {
            s = withDefault(s, reads, EPOCHS, d.epochs);
            s = withDefault(s, reads, BATCH_SIZE, synthetic ? (protocol.isPrivate() ? trainSize : 0L) : d.batchSize);
            s = withDefault(s, reads, CentralOptions.UPDATER, d.updater);
        }
        if (decentralized) {
            s = withDefault(s, reads, ROUNDS, d.rounds);
            if (!synthetic) {
                s = withDefault(s, reads, BATCH_SIZE, d.nodeBatch);
            }
            s = withDefault(s, reads, DecentralizedOptions.LR_DECAY, d.learningRateDecay);
            s = withDefault(s, reads, DecentralizedOptions.UNIT, d.unit);
        }
        if (protocol.family().equals("relay") || protocol.family().equals("personalized")) {
            s = withDefault(s, reads, ROUNDS, d.rounds);
        }
        return s;
    }

    private static <T> RunSettings withDefault(RunSettings s, List<RunOption<?>> reads, RunOption<T> option, T value) {
        return reads.contains(option) ? s.withDefault(option, value) : s;
    }
}
