package org.dpdl4j.runtime;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.learning.config.IUpdater;

/**
 * Makes the network a run trains: the caller knows the architecture (the data's shape, the model family), the
 * protocol knows how it trains it (the updater and learning rate of central training, the seed). Its
 * {@link #footprint()} tells the network's sizes without building it, for the run's memory estimate.
 */
public interface ModelBuilder {

    /**
     * A freshly initialised network.
     *
     * @param updater     the DL4J updater of the network (central training uses it; protocols with their own step
     *                    rule pass a plain {@code Sgd})
     * @param weightDecay DL4J weight decay of the network, 0 for none
     * @param seed        the seed of its initial parameters
     */
    MultiLayerNetwork build(IUpdater updater, double weightDecay, long seed);

    /** The sizes of the network {@link #build} makes, read from its configuration without allocating it. */
    ModelFootprint footprint();
}
