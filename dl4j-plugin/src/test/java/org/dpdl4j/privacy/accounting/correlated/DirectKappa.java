package org.dpdl4j.privacy.accounting.correlated;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.InducedSubgraph;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.inverse.InvertMatrix;

/** Test oracle: kappa by explicit LU inversion of the honest covariance, independent of the accountant. */
final class DirectKappa {
    private DirectKappa() {
    }

    /** max_i ((sigmaCdp^2 I + sigmaCor^2 L_G)^-1)_ii. */
    static double kappa(Graph g, double sigmaCdp, double sigmaCor) {
        double[] d = inverseDiagonal(g, sigmaCdp, sigmaCor);
        double max = 0;
        for (double v : d) {
            max = Math.max(max, v);
        }
        return max;
    }

    static double[] inverseDiagonal(Graph g, double sigmaCdp, double sigmaCor) {
        INDArray sigma = g.laplacianArray().muli(sigmaCor * sigmaCor)
                .addi(Nd4j.eye(g.vertexCount()).castTo(DataType.DOUBLE).muli(sigmaCdp * sigmaCdp));
        INDArray inv = InvertMatrix.invert(sigma, false);
        double[] d = new double[g.vertexCount()];
        for (int i = 0; i < d.length; i++) {
            d[i] = inv.getDouble(i, i);
        }
        return d;
    }

    /** kappa of the honest set left after deleting the given vertices. */
    static double kappaAfterDeleting(Graph g, double sigmaCdp, double sigmaCor, int... deleted) {
        InducedSubgraph h = g.deleteVertices(deleted);
        return kappa(h.graph(), sigmaCdp, sigmaCor);
    }

    /** Worst case over all q-subsets by brute force. */
    static double worstOverSubsets(Graph g, double sigmaCdp, double sigmaCor, int q) {
        int n = g.vertexCount();
        int[] s = new int[q];
        for (int k = 0; k < q; k++) {
            s[k] = k;
        }
        double worst = 0;
        do {
            worst = Math.max(worst, kappaAfterDeleting(g, sigmaCdp, sigmaCor, s));
        } while (SecRdpAccountant.nextSubset(s, n));
        return worst;
    }
}
