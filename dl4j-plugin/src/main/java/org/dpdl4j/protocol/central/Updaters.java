package org.dpdl4j.protocol.central;

import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Nesterovs;
import org.nd4j.linalg.learning.config.Sgd;

/** DL4J updaters of central training, by their option name. */
public final class Updaters {
    private Updaters() {
    }

    /**
     * {@code sgd}, {@code momentum} (Nesterov, 0.9) or {@code adam}, with the learning rate.
     *
     * @throws IllegalArgumentException naming the accepted updaters
     */
    public static IUpdater of(String name, double learningRate) {
        return switch (name) {
            case "sgd" -> new Sgd(learningRate);
            case "momentum" -> new Nesterovs(learningRate, 0.9);
            case "adam" -> new Adam(learningRate);
            default -> throw new IllegalArgumentException("unknown updater '" + name + "'; use sgd, momentum or adam");
        };
    }

    /** Values of the updater's state per parameter (Adam 2, momentum 1, SGD 0). */
    public static double stateValues(String name) {
        return of(name, 1.0).stateSize(1_000_000) / 1e6;
    }
}
