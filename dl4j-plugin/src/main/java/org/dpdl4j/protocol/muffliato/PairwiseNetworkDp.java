package org.dpdl4j.protocol.muffliato;

import java.util.Arrays;
import java.util.Objects;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.privacy.accounting.Calibrator;
import org.dpdl4j.privacy.accounting.ZCdp;

/**
 * Pairwise network DP of Muffliato gossip averaging: how much observer v learns about node u's value.
 *
 * <p>Each node u adds {@code N(0, sigma^2 I)} to its value (L2 sensitivity Delta between neighbouring inputs of u),
 * then T gossip steps run. Observer v sees the messages its neighbours send it and knows its own noise. Its view is a
 * linear Gaussian mechanism, so its Renyi divergence at order alpha is exactly
 * {@code alpha * Delta^2 / (2 sigma^2) * E_{u,v}}, where the exposure {@code E_{u,v} in [0, 1]} is the squared
 * norm of the projection of {@code e_u} on what v's messages span ({@link ObserverView}). Over K rounds with fresh
 * noise the divergences add: the pair is {@code rho}-zCDP with {@code rho = K E_{u,v} / (2 z^2)},
 * {@code z = sigma / Delta}, converted to {@code (epsilon, delta)} by {@link ZCdp#epsilon}. Local DP is
 * {@code E = 1}, so no pair is ever charged more than local DP, and nodes farther than T hops from v have
 * {@code E = 0}.
 *
 * <p>The same view spans the same space for every degree-t scheme, so the plain and Chebyshev schemes have the same
 * exposures at equal T. {@link #paperFactors()} gives the per-message sum of Muffliato's theorem for comparison; it can
 * be far smaller than the exact divergence (the messages share noise) and is never used as the guarantee.
 */
public final class PairwiseNetworkDp {
    private final MixingMatrix w;
    private final GossipScheme scheme;
    private final int steps;
    private final double[][] exposure;

    private PairwiseNetworkDp(MixingMatrix w, GossipScheme scheme, int steps, double[][] exposure) {
        this.w = w;
        this.scheme = scheme;
        this.steps = steps;
        this.exposure = exposure;
    }

    /**
     * Computes the exposures of all ordered pairs.
     *
     * @param w      the mixing matrix (its graph says who talks to whom)
     * @param scheme the gossip scheme (it does not change the exposures; kept for {@link #paperFactors()})
     * @param steps  T, the gossip steps per averaging
     */
    public static PairwiseNetworkDp of(MixingMatrix w, GossipScheme scheme, int steps) {
        Objects.requireNonNull(w, "mixing matrix");
        Objects.requireNonNull(scheme, "scheme");
        if (steps < 0) {
            throw new IllegalArgumentException("the number of gossip steps T must be >= 0, got " + steps);
        }
        int n = w.size();
        double[][] e = new double[n][n];
        for (int v = 0; v < n; v++) {
            double[] col = ObserverView.exposure(w, v, steps);
            for (int u = 0; u < n; u++) {
                e[u][v] = col[u];
            }
        }
        return new PairwiseNetworkDp(w, scheme, steps, e);
    }

    /** Number of nodes. */
    public int size() {
        return exposure.length;
    }

    /** T. */
    public int steps() {
        return steps;
    }

    /** {@code E_{u,v}} in [0, 1]: the fraction of the local-DP divergence of u that v's view carries; 0 at u = v. */
    public double exposure(int u, int v) {
        return exposure[u][v];
    }

    /** A copy of the exposure matrix, {@code [u][v]}. */
    public double[][] exposures() {
        double[][] c = new double[exposure.length][];
        for (int i = 0; i < c.length; i++) {
            c[i] = exposure[i].clone();
        }
        return c;
    }

    /**
     * Muffliato's per-message sum for the same W, scheme and T ({@link PaperBound}), {@code [u][v]}: for comparison
     * only; it may exceed 1 (more than local DP) near u and fall far below the exact exposure far from u.
     */
    public double[][] paperFactors() {
        return PaperBound.factors(new GossipPolynomial(w, scheme), steps);
    }

    /** rho of pair (u, v) over {@code rounds} averagings with noise multiplier {@code z = sigma / Delta}. */
    public double rho(int u, int v, double noiseMultiplier, long rounds) {
        return rounds * exposure[u][v] / (2.0 * requireNoise(noiseMultiplier) * noiseMultiplier);
    }

    /** The (epsilon, delta) of pair (u, v); 0 when u's value never reaches v. */
    public double epsilon(int u, int v, double noiseMultiplier, long rounds, double delta) {
        double rho = rho(u, v, noiseMultiplier, rounds);
        return rho == 0 ? 0.0 : ZCdp.epsilon(rho, delta);
    }

    /** All pairwise epsilons, {@code [u][v]}, 0 on the diagonal. */
    public double[][] epsilons(double noiseMultiplier, long rounds, double delta) {
        int n = size();
        double[][] eps = new double[n][n];
        for (int u = 0; u < n; u++) {
            for (int v = 0; v < n; v++) {
                eps[u][v] = u == v ? 0.0 : epsilon(u, v, noiseMultiplier, rounds, delta);
            }
        }
        return eps;
    }

    /** Local DP epsilon of the same noise: every released value seen, {@code E = 1}. */
    public static double localEpsilon(double noiseMultiplier, long rounds, double delta) {
        return ZCdp.epsilon(rounds / (2.0 * requireNoise(noiseMultiplier) * noiseMultiplier), delta);
    }

    /** Mean, median, p90 and max over ordered pairs u != v, and local DP. */
    public PairwiseSummary summary(double noiseMultiplier, long rounds, double delta) {
        int n = size();
        if (n < 2) {
            throw new IllegalStateException("pairwise privacy needs at least two nodes, the graph has " + n);
        }
        double[] all = new double[n * (n - 1)];
        double[][] eps = epsilons(noiseMultiplier, rounds, delta);
        int k = 0;
        for (int u = 0; u < n; u++) {
            for (int v = 0; v < n; v++) {
                if (u != v) {
                    all[k++] = eps[u][v];
                }
            }
        }
        Arrays.sort(all);
        double mean = Arrays.stream(all).average().orElse(0);
        return new PairwiseSummary(mean, quantile(all, 0.5), quantile(all, 0.9), all[all.length - 1],
                localEpsilon(noiseMultiplier, rounds, delta), delta);
    }

    /** Which summary a calibration targets. */
    public enum Target {
        /** The mean over ordered pairs. */
        MEAN,
        /** The largest pair: a guarantee every pair has. */
        MAX
    }

    /**
     * The smallest noise multiplier {@code z = sigma / Delta} whose mean (or max) pairwise epsilon is at most the target.
     *
     * @throws IllegalArgumentException when no pair is exposed (every epsilon is 0 whatever the noise)
     */
    public double noiseMultiplierFor(double targetEpsilon, long rounds, double delta, Target target) {
        double worst = 0;
        for (double[] row : exposure) {
            for (double e : row) {
                worst = Math.max(worst, e);
            }
        }
        if (worst == 0) {
            throw new IllegalArgumentException("no observer sees any other node's value in " + steps
                    + " gossip steps, so no noise is needed for pairwise privacy; local DP still needs one (calibrate it instead)");
        }
        return Calibrator.calibrate(z -> {
            PairwiseSummary s = summary(z, rounds, delta);
            return target == Target.MAX ? s.max() : s.mean();
        }, targetEpsilon).noise();
    }

    private static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    private static double requireNoise(double z) {
        if (!(z > 0) || Double.isInfinite(z)) {
            throw new IllegalArgumentException("noise multiplier sigma / Delta must be a positive finite number, got " + z);
        }
        return z;
    }
}
