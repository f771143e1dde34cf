package org.dpdl4j.protocol.muffliato;

import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;

/**
 * The linear-algebra core of the exact pairwise accountant. After T gossip steps an observer v has received
 * {@code m_{w,t} = (p_t(W) z)_w} for each neighbour w and {@code t < T}, with {@code z = x + eta}; every degree-t
 * polynomial scheme spans the same rows, the block Krylov space {@code K_v = span{W^t e_w : w ~ v, t < T}} (W is
 * symmetric). v also knows its own noise. For neighbouring inputs differing in {@code x_u} (u != v) by at most Delta,
 * the view is a Gaussian vector with one covariance and means differing by {@code Delta a_u}, so its Renyi divergence
 * is exactly {@code alpha Delta^2 / (2 sigma^2) * e_u' P e_u}, with P the orthogonal projector onto K_v with
 * coordinate v removed. This class computes that exposure {@code e_u' P e_u} in [0, 1] for all u at once.
 */
final class ObserverView {
    /**
     * A new Krylov direction whose residual after re-orthogonalisation is below this is treated as already observed.
     * Keeping a doubtful direction can only raise the exposure (the safe side), so the threshold sits at rounding level.
     */
    static final double RANK_TOLERANCE = 1e-12;
    /** {@code 1 - ||q_v||^2} below this: e_v lies in K_v (the observer's own coordinate is in the span). */
    static final double OWN_TOLERANCE = 1e-9;

    private ObserverView() {
    }

    /**
     * The exposure of every node to observer v.
     *
     * @param w     the mixing matrix
     * @param v     the observer
     * @param steps T, the gossip steps v observes
     * @return {@code exposure[u]} in [0, 1]; 0 at u = v
     */
    static double[] exposure(MixingMatrix w, int v, int steps) {
        int n = w.size();
        if (steps <= 0) {
            return new double[n];
        }
        Graph g = w.graph();
        List<double[]> basis = new ArrayList<>();
        List<double[]> block = new ArrayList<>();
        for (int nb : g.neighbours(v)) {
            double[] e = new double[n];
            e[nb] = 1;
            addIfNew(basis, block, e);
        }
        for (int t = 1; t < steps && !block.isEmpty() && basis.size() < n; t++) {
            List<double[]> next = new ArrayList<>();
            for (double[] q : block) {
                addIfNew(basis, next, multiply(w, q));
            }
            block = next;
        }
        double[] qv = new double[basis.size()];
        for (int k = 0; k < qv.length; k++) {
            qv[k] = basis.get(k)[v];
        }
        double own = 1.0 - dot(qv, qv);
        double[] out = new double[n];
        for (int u = 0; u < n; u++) {
            if (u == v) {
                continue;
            }
            double norm = 0;
            double cross = 0;
            for (int k = 0; k < qv.length; k++) {
                double quk = basis.get(k)[u];
                norm += quk * quk;
                cross += quk * qv[k];
            }
            // Dropping coordinate v from an orthonormal basis Q: the Gram matrix becomes I - q_v q_v', inverted by
            // Sherman-Morrison; when e_v is in the span the cross term is zero and only the rank drops.
            double value = own < OWN_TOLERANCE ? norm : norm + cross * cross / own;
            out[u] = Math.min(1.0, Math.max(0.0, value));
        }
        return out;
    }

    /** Orthogonalises {@code x} against the basis twice (Gram-Schmidt, re-orthogonalised) and keeps it if new. */
    private static void addIfNew(List<double[]> basis, List<double[]> added, double[] x) {
        for (int pass = 0; pass < 2; pass++) {
            for (double[] q : basis) {
                double c = dot(q, x);
                for (int i = 0; i < x.length; i++) {
                    x[i] -= c * q[i];
                }
            }
        }
        double norm = Math.sqrt(dot(x, x));
        if (norm > RANK_TOLERANCE) {
            for (int i = 0; i < x.length; i++) {
                x[i] /= norm;
            }
            basis.add(x);
            added.add(x);
        }
    }

    /** {@code W x} through the graph's neighbour lists. */
    static double[] multiply(MixingMatrix w, double[] x) {
        int n = x.length;
        double[] y = new double[n];
        Graph g = w.graph();
        for (int i = 0; i < n; i++) {
            double s = w.get(i, i) * x[i];
            for (int j : g.neighbours(i)) {
                s += w.get(i, j) * x[j];
            }
            y[i] = s;
        }
        return y;
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
