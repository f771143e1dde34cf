package org.dpdl4j.privacy.accounting;

import java.util.Objects;

/**
 * Composition of pure {@code eps}-DP releases (e.g. Laplace updates), heterogeneous budgets allowed:
 * the optimal-composition-style bound of Kairouz, Oh &amp; Viswanath 2015 (Thm. 3.5), as used by
 * Bellet et al. 2018 (Thm. 1). For budgets {@code eps_1..eps_T} and a slack {@code deltaBar},
 * <pre>
 *   epsBar = min{ sum eps_t,
 *                 sum eps_t tanh(eps_t/2) + sqrt(2 sum eps_t^2 ln(e + sqrt(sum eps_t^2)/deltaBar)),
 *                 sum eps_t tanh(eps_t/2) + sqrt(2 sum eps_t^2 ln(1/deltaBar)) }
 * </pre>
 * ({@code (e^eps - 1) eps/(e^eps + 1) = eps tanh(eps/2)}). When the releases are themselves
 * {@code (eps_t, delta_t)}-DP the total delta is {@code 1 - (1 - deltaBar) prod_t (1 - delta_t)}
 * (Bellet et al., Remark 5), see {@link #totalDelta(double, double[])}.
 */
public final class AdvancedComposition {
    private AdvancedComposition() {
    }

    /**
     * The composed epsilon of releases with the given pure-DP budgets.
     *
     * @param epsilons per-release budgets, each {@code >= 0} ({@code +inf} allowed: the total is then infinite)
     * @param deltaBar the slack in [0, 1]; 0 gives the plain sum
     */
    public static double epsilon(double[] epsilons, double deltaBar) {
        Objects.requireNonNull(epsilons, "epsilons must not be null");
        requireDeltaBar(deltaBar);
        double sum = 0.0;
        double sumSquares = 0.0;
        double sumDrift = 0.0;
        for (int t = 0; t < epsilons.length; t++) {
            double e = epsilons[t];
            if (!(e >= 0)) {
                throw new IllegalArgumentException("epsilon of release " + t + " must be >= 0, got " + e);
            }
            sum += e;
            sumSquares += e * e;
            sumDrift += e == Double.POSITIVE_INFINITY ? e : e * Math.tanh(e / 2.0);
        }
        return threeWayMin(sum, sumSquares, sumDrift, deltaBar);
    }

    /** {@link #epsilon(double[], double)} for {@code count} releases of the same budget. */
    public static double epsilon(double epsilonPerRelease, long count, double deltaBar) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        if (!(epsilonPerRelease >= 0)) {
            throw new IllegalArgumentException("epsilon per release must be >= 0, got " + epsilonPerRelease);
        }
        requireDeltaBar(deltaBar);
        if (count == 0 || epsilonPerRelease == 0.0) {
            return 0.0;
        }
        double e = epsilonPerRelease;
        double drift = e == Double.POSITIVE_INFINITY ? e : e * Math.tanh(e / 2.0);
        return threeWayMin(count * e, count * e * e, count * drift, deltaBar);
    }

    /** The KOV15 minimum from the sums of eps, eps^2 and eps tanh(eps/2). */
    private static double threeWayMin(double sum, double sumSquares, double sumDrift, double deltaBar) {
        if (sum == Double.POSITIVE_INFINITY || deltaBar == 0.0 || sum == 0.0) {
            return sum;
        }
        double second = sumDrift + Math.sqrt(2.0 * sumSquares * Math.log(Math.E + Math.sqrt(sumSquares) / deltaBar));
        double third = sumDrift + Math.sqrt(2.0 * sumSquares * -Math.log(deltaBar));
        return Math.min(sum, Math.min(second, third));
    }

    /**
     * The delta of the composition: {@code 1 - (1 - deltaBar) prod_t (1 - delta_t)}, computed as
     * {@code -expm1(log1p(-deltaBar) + sum_t log1p(-delta_t))} so that tiny deltas keep their precision.
     *
     * @param deltaBar the slack used in {@link #epsilon(double[], double)}, in [0, 1]
     * @param releaseDeltas per-release deltas, each in [0, 1]
     */
    public static double totalDelta(double deltaBar, double[] releaseDeltas) {
        Objects.requireNonNull(releaseDeltas, "releaseDeltas must not be null");
        requireDeltaBar(deltaBar);
        double logKeep = Math.log1p(-deltaBar);
        for (int t = 0; t < releaseDeltas.length; t++) {
            double d = releaseDeltas[t];
            if (!(d >= 0 && d <= 1)) {
                throw new IllegalArgumentException("delta of release " + t + " must lie in [0, 1], got " + d);
            }
            logKeep += Math.log1p(-d);
        }
        return -Math.expm1(logKeep);
    }

    private static void requireDeltaBar(double deltaBar) {
        if (!(deltaBar >= 0 && deltaBar <= 1)) {
            throw new IllegalArgumentException("deltaBar must lie in [0, 1], got " + deltaBar);
        }
    }
}
