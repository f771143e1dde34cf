package org.dpdl4j.protocol.muffliato;

import org.dpdl4j.graph.Graph;

/**
 * The pairwise bound in the form Muffliato's theorem for Gaussian gossip averaging gives it (Cyffers et al. 2022):
 * the Renyi divergence of v's view about u is at most {@code alpha Delta^2 / (2 sigma^2)} times
 * {@code sum_{t < T} sum_{w ~ v} (P_t)_{w,u}^2 / ||(P_t)_{w,.}||^2}, i.e. every message {@code m_{w,t}} is charged as
 * a separate Gaussian mechanism with noise variance {@code sigma^2 ||(P_t)_w||^2} and sensitivity
 * {@code Delta |(P_t)_{w,u}|}. The sum runs over the messages the exact accountant sees, {@code t = 0 .. T - 1} (the
 * first are the neighbours' noisy values themselves, which synchronous gossip sends). It treats the messages as if
 * their noises were independent; they are not (all are combinations of the same n draws), and it falls below the exact
 * divergence for many pairs (a three-leaf star at T = 2: 1/4 against 1/2), so it is reported for comparison only:
 * {@link PairwiseNetworkDp} accounts the exact divergence of the joint view.
 */
final class PaperBound {
    private PaperBound() {
    }

    /**
     * @return {@code factor[u][v]}: the sum above (without {@code alpha Delta^2 / (2 sigma^2)}); 0 on the diagonal
     */
    static double[][] factors(GossipPolynomial gossip, int steps) {
        int n = gossip.matrix().size();
        Graph g = gossip.matrix().graph();
        double[][] out = new double[n][n];
        double[][] prev = null;
        double[][] cur = identity(n);
        double[] r = gossip.ratios(Math.max(steps, 1));
        for (int t = 0; t < steps; t++) {
            if (t > 0) {
                double[][] next = new double[n][];
                for (int i = 0; i < n; i++) {
                    next[i] = new double[n];
                }
                for (int col = 0; col < n; col++) {
                    double[] x = new double[n];
                    for (int i = 0; i < n; i++) {
                        x[i] = cur[i][col];
                    }
                    double[] y = ObserverView.multiply(gossip.matrix(), x);
                    double a = t == 1 ? 1.0 : gossip.a(r, t - 1);
                    double b = t == 1 ? 0.0 : gossip.b(r, t - 1);
                    for (int i = 0; i < n; i++) {
                        next[i][col] = a * y[i] - (b == 0 ? 0 : b * prev[i][col]);
                    }
                }
                prev = cur;
                cur = next;
            }
            for (int v = 0; v < n; v++) {
                for (int w : g.neighbours(v)) {
                    double rowNorm = ObserverView.dot(cur[w], cur[w]);
                    for (int u = 0; u < n; u++) {
                        if (u != v) {
                            out[u][v] += cur[w][u] * cur[w][u] / rowNorm;
                        }
                    }
                }
            }
        }
        return out;
    }

    private static double[][] identity(int n) {
        double[][] id = new double[n][n];
        for (int i = 0; i < n; i++) {
            id[i][i] = 1;
        }
        return id;
    }
}
