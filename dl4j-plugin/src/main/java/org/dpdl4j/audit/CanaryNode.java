package org.dpdl4j.audit;

import java.util.Objects;
import org.dpdl4j.protocol.decentralized.PlantedContributions;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Canaries of a user-level audit of a decentralized run, planted at one node: canary k adds the Dirac vector
 * {@code S e_j} on a coordinate j of its own to that node's clipped gradient every round when its coin says "in";
 * when "out" it adds nothing (add or remove one unit) or the mirror {@code -S e_j} (replace one unit's data). Each
 * canary changes one node's contribution by at most what the user-level analysis allows for one unit, so each is a
 * unit of its own; placed on coordinates no data ever moves ({@link ZeroGradientCoordinates}), every message carries
 * the canary's share and the noise only.
 */
public final class CanaryNode implements PlantedContributions {
    private final CanaryClients canaries;
    private final int node;
    private final int[] coordinates;
    private final double[] shares;

    /**
     * @param canaries the canaries (coordinates, coins, norm S, relation)
     * @param node     the node whose messages carry them
     */
    public CanaryNode(CanaryClients canaries, int node) {
        this.canaries = Objects.requireNonNull(canaries, "canaries");
        if (node < 0) {
            throw new IllegalArgumentException("node " + node + " is negative");
        }
        this.node = node;
        this.coordinates = canaries.coordinates();
        boolean[] coins = canaries.coins();
        this.shares = new double[coins.length];
        for (int k = 0; k < coins.length; k++) {
            shares[k] = coins[k] ? canaries.norm() : canaries.outMirrored() ? -canaries.norm() : 0.0;
        }
    }

    @Override
    public void addTo(long round, INDArray grad) {
        if (node >= grad.rows()) {
            throw new IllegalArgumentException("the canaries' node " + node + " is not one of the run's " + grad.rows()
                    + " nodes");
        }
        INDArray row = grad.getRow(node);
        for (int k = 0; k < coordinates.length; k++) {
            if (coordinates[k] >= row.length()) {
                throw new IllegalArgumentException("canary " + k + "'s coordinate " + coordinates[k] + " lies outside the"
                        + " model's " + row.length() + " parameters; place the canaries for this model");
            }
            if (shares[k] != 0) {
                row.putScalar(coordinates[k], row.getDouble(coordinates[k]) + shares[k]);
            }
        }
    }

    /** The canaries. */
    public CanaryClients canaries() {
        return canaries;
    }

    /** The node that carries them. */
    public int node() {
        return node;
    }
}
