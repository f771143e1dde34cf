package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.protocol.decentralized.RoundTap;

/**
 * One node's release in a round of a decentralized run, as tapped from the engine's {@link RoundTap}, with what
 * the adversary knows about it.
 *
 * @param tap       the round (valid only during the engine's callback; the observer copies what it needs)
 * @param node      the attacked node
 * @param neighbour the observing neighbour, who removes the pairwise term it shares with the node; -1 for an
 *                  eavesdropper outside the graph
 * @param template  a network with the run's architecture (its parameters are ignored)
 * @param scale     factor from the mean gradient of the node's batch to the released gradient (1 for a MEAN
 *                  objective without clipping, the batch size for SUM; unknown to the attacker when clipping
 *                  shrinks it)
 * @param batchSize examples in the node's batch this round
 * @param noiseStd  per-coordinate std of the noise left in the vector the adversary sees, in its units
 */
public record NodeRelease(RoundTap tap, int node, int neighbour, MultiLayerNetwork template, ObservationScale scale,
                          int batchSize, double noiseStd) {

    public NodeRelease {
        Objects.requireNonNull(tap, "tap must not be null");
        Objects.requireNonNull(template, "template must not be null");
        Objects.requireNonNull(scale, "scale must not be null");
        int n = (int) tap.before().size(0);
        if (node < 0 || node >= n) {
            throw new IllegalArgumentException("node " + node + " is outside 0.." + (n - 1));
        }
        if (neighbour != -1 && !tap.graph().hasEdge(node, neighbour)) {
            throw new IllegalArgumentException("node " + neighbour + " is not a neighbour of node " + node
                    + "; give -1 for an eavesdropper outside the graph");
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        if (!(noiseStd >= 0) || Double.isInfinite(noiseStd)) {
            throw new IllegalArgumentException("noise std must be a finite number >= 0, got " + noiseStd);
        }
    }
}
