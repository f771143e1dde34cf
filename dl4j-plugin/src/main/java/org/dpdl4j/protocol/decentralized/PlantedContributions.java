package org.dpdl4j.protocol.decentralized;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Contributions planted in a decentralized run to audit it: each round they are added to the nodes' clipped local
 * gradients, before the noise, as units of their own (each at most the clip in norm, so each is covered by the
 * run's user-level guarantee). A run without them is unchanged.
 */
@FunctionalInterface
public interface PlantedContributions {
    /**
     * Adds this round's planted contributions to {@code grad} in place.
     *
     * @param round the round
     * @param grad  [n, p]: every node's clipped local gradient
     */
    void addTo(long round, INDArray grad);
}
