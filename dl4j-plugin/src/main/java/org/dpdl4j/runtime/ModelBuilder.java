package org.dpdl4j.runtime;

import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.learning.config.IUpdater;

/**
 * Makes the network a run trains: the caller knows the architecture (the data's shape, the model family), the
 * protocol knows how it trains it (the updater and learning rate of central training, the seed). Its
 * {@link #footprint()} tells the network's sizes without building it, for the run's memory estimate, and its
 * {@link #configuration()} the network's form, for a protocol that prices a run before it builds one.
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

    /**
     * The configuration of the networks {@link #build} makes (their layers, loss and data type; the updater, weight
     * decay and seed are {@code build}'s), without allocating anything: what a protocol whose privacy analysis depends
     * on the model's form reads to price a run before it builds one.
     */
    MultiLayerConfiguration configuration();
}
