package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.protocol.federated.ServerTrust;

/**
 * Tables 1 and 2 of Reshef and Levy (ICML 2024), "Private and Federated Stochastic Convex Optimization":
 * MNIST softmax regression, M machines with T = 60000 / M examples each, test cross-entropy and accuracy for
 * each privacy level (spec 4.6; the numbers are exact from the paper's text).
 */
final class Mu2PaperTables {
    /** The grid of the tables. */
    static final int[] MACHINES = {1, 10, 100};
    static final double[] EPSILONS = {4, 8, 16};

    // [epsilon index][machines index]
    private static final double[][] UNTRUSTED_LOSS = {{2.256, 2.267, 2.285}, {2.253, 2.259, 2.274}, {2.252, 2.255, 2.264}};
    private static final double[][] UNTRUSTED_ACC = {{0.699, 0.694, 0.654}, {0.702, 0.700, 0.698}, {0.704, 0.701, 0.700}};
    private static final double[][] TRUSTED_LOSS = {{2.256, 2.256, 2.258}, {2.253, 2.253, 2.257}, {2.252, 2.252, 2.256}};
    private static final double[][] TRUSTED_ACC = {{0.699, 0.697, 0.695}, {0.702, 0.701, 0.696}, {0.704, 0.703, 0.697}};

    private Mu2PaperTables() {
    }

    /** The paper's (test loss, test accuracy) for a grid cell, or null off the grid. */
    static double[] of(ServerTrust trust, int machines, double epsilon) {
        int m = indexOf(machines);
        int e = -1;
        for (int i = 0; i < EPSILONS.length; i++) {
            if (EPSILONS[i] == epsilon) {
                e = i;
            }
        }
        if (m < 0 || e < 0) {
            return null;
        }
        return trust == ServerTrust.UNTRUSTED ? new double[]{UNTRUSTED_LOSS[e][m], UNTRUSTED_ACC[e][m]}
                : new double[]{TRUSTED_LOSS[e][m], TRUSTED_ACC[e][m]};
    }

    private static int indexOf(int machines) {
        for (int i = 0; i < MACHINES.length; i++) {
            if (MACHINES[i] == machines) {
                return i;
            }
        }
        return -1;
    }
}
