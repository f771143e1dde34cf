package org.dpdl4j.privacy.accounting;

/**
 * Exact RDP of the Laplace mechanism (Mironov 2017, "Renyi Differential Privacy", Prop. 6): for
 * noise scale {@code b} and L1 sensitivity {@code Delta}, with {@code lambda = b / Delta},
 * <pre>
 *   eps_R(alpha) = 1/(alpha-1) ln( alpha/(2alpha-1) e^{(alpha-1)/lambda} + (alpha-1)/(2alpha-1) e^{-alpha/lambda} ),
 * </pre>
 * which increases from the KL divergence {@code 1/lambda + e^{-1/lambda} - 1} (alpha to 1) to the
 * pure-DP level {@code 1/lambda} (alpha to infinity).
 */
final class LaplaceRdp {
    private LaplaceRdp() {
    }

    /** RDP at order {@code alpha > 1} for the scale-to-sensitivity ratio {@code lambda >= 0}. */
    static double rdp(double lambda, double alpha) {
        if (lambda == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        if (lambda == 0.0) {
            return Double.POSITIVE_INFINITY;
        }
        double x = 1.0 / lambda;
        if (alpha * x > SERIES_BELOW) {
            double a = Math.log(alpha / (2.0 * alpha - 1.0)) + (alpha - 1.0) * x;
            double b = Math.log((alpha - 1.0) / (2.0 * alpha - 1.0)) - alpha * x;
            return LogMath.logAddExp(a, b) / (alpha - 1.0);
        }
        // Large noise: the sum is 1 + O(x^2), which the closed form loses to rounding (to exactly 0, below or above the
        // truth, at lambda = 1e8). Its excess over 1 is the series
        //   sum_{k>=2} x^k / k! * alpha (alpha-1) ((alpha-1)^(k-1) + (-1)^k alpha^(k-1)) / (2 alpha - 1)
        // (the k = 1 terms cancel exactly), summed term by term; the k = 2 term dominates: alpha (alpha-1) x^2 / 2.
        double excess = 0;
        double power = x;   // x^k / k!, from k = 1
        double previous = Double.POSITIVE_INFINITY;
        for (int k = 2; k <= 60; k++) {
            power *= x / k;
            double term = power * alpha * (alpha - 1.0) * bracket(alpha, k) / (2.0 * alpha - 1.0);
            excess += term;
            // two terms in a row negligible: an odd term alone can be small where the next even one is not
            if (Math.abs(term) + Math.abs(previous) <= 1e-18 * Math.abs(excess)) {
                break;
            }
            previous = term;
        }
        // A finite noise never gives identical output distributions: an excess lost below the smallest double is priced
        // as that double, never as 0 (which the accountants read as (0, 0)-DP).
        return Math.max(Math.log1p(excess) / (alpha - 1.0), Double.MIN_VALUE);
    }

    /**
     * {@code (alpha-1)^(k-1) + (-1)^k alpha^(k-1)}; for odd k the difference of near-equal powers, taken as
     * {@code alpha^(k-1) expm1((k-1) ln(1 - 1/alpha))} so that it does not cancel to 0 at large orders.
     */
    private static double bracket(double alpha, int k) {
        if (k % 2 == 0) {
            return Math.pow(alpha - 1.0, k - 1) + Math.pow(alpha, k - 1);
        }
        return Math.pow(alpha, k - 1) * Math.expm1((k - 1) * Math.log1p(-1.0 / alpha));
    }

    /**
     * Below this alpha / lambda the RDP is summed as a series: there the closed form's rounding is the larger error (the
     * series converges fast, each term at most alpha / (lambda k) of the one before).
     */
    static final double SERIES_BELOW = 0.1;
}
