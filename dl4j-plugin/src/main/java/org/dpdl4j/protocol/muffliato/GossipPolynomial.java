package org.dpdl4j.protocol.muffliato;

import java.util.Objects;
import org.dpdl4j.graph.MixingMatrix;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * T steps of gossip averaging on the stacked node values ([n, d], row i = node i) with a symmetric doubly stochastic
 * W: {@code x_0 = z}, {@code x_1 = W x_0}, {@code x_{t+1} = a_t W x_t - b_t x_{t-1}} with {@code a_t - b_t = 1}, so
 * every step is one {@code W . X} product and the column means never change.
 *
 * <p>Plain gossip has {@code a_t = 1, b_t = 0}. The Chebyshev scheme (Golub-Varga semi-iteration) uses the three-term
 * recurrence of {@code T_t(x / lambda) / T_t(1 / lambda)} written with the ratios {@code r_t = c_t / c_{t+1}} of
 * {@code c_t = T_t(1 / lambda)} (which overflow for long runs themselves): {@code r_0 = lambda},
 * {@code r_t = 1 / (2 / lambda - r_{t-1})}, {@code a_t = 2 r_t / lambda}, {@code b_t = r_{t-1} r_t}.
 */
public final class GossipPolynomial {
    /** A contraction this close to 1 leaves the gossip without a spectral gap. */
    static final double GAP_TOLERANCE = 1e-12;

    private final MixingMatrix w;
    private final java.util.Map<DataType, INDArray> dense = new java.util.concurrent.ConcurrentHashMap<>();
    private final GossipScheme scheme;
    private final double lambda;

    /**
     * @param w      the mixing matrix
     * @param scheme plain or Chebyshev
     * @throws IllegalArgumentException when W has no spectral gap (disconnected graph, or eigenvalue -1 on a bipartite
     *                                  graph: use a lazy matrix such as Metropolis-Hastings)
     */
    public GossipPolynomial(MixingMatrix w, GossipScheme scheme) {
        this.w = Objects.requireNonNull(w, "mixing matrix");
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        this.lambda = w.consensusContraction();
        if (!(lambda < 1 - GAP_TOLERANCE)) {
            throw new IllegalArgumentException("the mixing matrix has no spectral gap (contraction " + lambda
                    + "): gossip never reaches the average; connect the graph, or use a lazy matrix (e.g. Metropolis-Hastings)"
                    + " on a bipartite graph");
        }
    }

    /** The mixing matrix. */
    public MixingMatrix matrix() {
        return w;
    }

    /** The scheme. */
    public GossipScheme scheme() {
        return scheme;
    }

    /** lambda: the largest eigenvalue modulus of W off the consensus direction. */
    public double contraction() {
        return lambda;
    }

    /** Whether the recurrence is the plain one (also when lambda = 0: exact averaging in one step). */
    private boolean plain() {
        return scheme == GossipScheme.PLAIN || lambda < GAP_TOLERANCE;
    }

    /** The ratios {@code r_0..r_{steps-1}} of the Chebyshev recurrence. */
    double[] ratios(int steps) {
        double[] r = new double[Math.max(steps, 1)];
        r[0] = lambda;
        for (int t = 1; t < r.length; t++) {
            r[t] = 1.0 / (2.0 / lambda - r[t - 1]);
        }
        return r;
    }

    /** {@code a_t} of step {@code t -> t + 1} (t >= 1). */
    double a(double[] r, int t) {
        return plain() ? 1.0 : 2.0 * r[t] / lambda;
    }

    /** {@code b_t} of step {@code t -> t + 1} (t >= 1). */
    double b(double[] r, int t) {
        return plain() ? 0.0 : r[t - 1] * r[t];
    }

    /**
     * The worst-case factor by which T steps shrink the disagreement {@code ||X - mean||_F}: {@code lambda^T} for
     * plain gossip, {@code 1 / T_T(1 / lambda)} for Chebyshev.
     */
    public double disagreementFactor(int steps) {
        requireSteps(steps);
        if (plain()) {
            return Math.pow(lambda, steps);
        }
        double f = 1;
        for (double r : ratios(steps)) {
            f *= r;
        }
        return steps == 0 ? 1.0 : f;
    }

    /**
     * Runs T steps on the stacked values.
     *
     * @param z     [n, d], row i = node i; not modified
     * @param steps T >= 0
     * @return {@code p_T(W) z}, a new array of z's type
     */
    public INDArray apply(INDArray z, int steps) {
        requireSteps(steps);
        if (z.rank() != 2 || z.size(0) != w.size()) {
            throw new IllegalArgumentException("gossip needs the node values stacked as [n, d] with n = " + w.size()
                    + " rows, got shape " + java.util.Arrays.toString(z.shape()));
        }
        if (steps == 0) {
            return z.dup();
        }
        // built once per data type: a round's gossip reuses it (it was rebuilt from the matrix's entries every round)
        INDArray mix = dense.computeIfAbsent(z.dataType() == DataType.DOUBLE ? DataType.DOUBLE : z.dataType(), type -> {
            try (org.nd4j.linalg.api.memory.MemoryWorkspace outside = org.nd4j.linalg.factory.Nd4j.getMemoryManager()
                    .scopeOutOfWorkspaces()) {
                return w.toINDArray(type);   // outlives the round's workspace it is first asked for in
            }
        });
        INDArray prev = z;
        INDArray cur = mix.mmul(z);
        double[] r = plain() ? null : ratios(steps);
        for (int t = 1; t < steps; t++) {
            INDArray next = mix.mmul(cur);
            if (!plain()) {
                next.muli(a(r, t)).subi(prev.mul(b(r, t)));
            }
            prev = cur;
            cur = next;
        }
        return cur;
    }

    private static void requireSteps(int steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("the number of gossip steps must be >= 0, got " + steps);
        }
    }
}
