package org.dpdl4j.privacy.accounting;

/**
 * RDP of a Gaussian mechanism run on a uniformly random subset of fixed size, drawn without
 * replacement, under replace-one adjacency: Wang, Balle &amp; Kasiviswanathan 2019, "Subsampled
 * Renyi Differential Privacy and Analytical Moments Accountant", Theorem 9.
 *
 * <p>For sampling ratio {@code gamma = sampleSize / sourceSize}, integer {@code alpha >= 2} and a base
 * mechanism with RDP {@code eps(.)} and {@code eps(inf) = inf} (true of the Gaussian),
 * <pre>
 *   eps'(alpha) &lt;= 1/(alpha-1) ln( 1 + gamma^2 C(alpha,2) min{4(e^{eps(2)}-1), 2 e^{eps(2)}}
 *                                   + sum_{j=3..alpha} 2 gamma^j C(alpha,j) e^{(j-1) eps(j)} ).
 * </pre>
 * The bound never goes below zero loss at {@code gamma = 1} (it exceeds the base curve there), while
 * running a mechanism on a random subset can never cost more than running it on a fixed one
 * (quasi-convexity of Renyi divergences over the coupled choice of subset). The returned curve is
 * therefore {@code min(bound, eps)}, which is exactly the base curve at {@code gamma = 1}.
 *
 * <p>Non-integer orders: {@code (alpha-1) eps'(alpha)} is convex in alpha (a cumulant generating
 * function), so its chord between {@code floor(alpha)} and {@code ceil(alpha)} lies above it; the
 * bound interpolates linearly in that quantity, with value 0 at alpha = 1.
 */
final class WithoutReplacementGaussianRdp {
    private WithoutReplacementGaussianRdp() {
    }

    /**
     * RDP at order {@code alpha > 1} of the replace-one Gaussian with noise multiplier z (sensitivity
     * 2C for noise std z*C, so the base curve is {@code 2 alpha / z^2}) on a sample of ratio gamma.
     */
    static double rdp(double gamma, double z, double alpha) {
        if (gamma == 0.0 || z == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        if (z == 0.0) {
            return Double.POSITIVE_INFINITY;
        }
        double base = baseRdp(z, alpha);
        if (gamma == 1.0) {
            return base;
        }
        if (SampledGaussianRdp.isInteger(alpha)) {
            return Math.min(base, theorem9Bound(gamma, z, (int) alpha));
        }
        int lo = (int) Math.floor(alpha);
        int hi = lo + 1;
        double loValue = lo == 1 ? 0.0 : (lo - 1) * Math.min(baseRdp(z, lo), theorem9Bound(gamma, z, lo));
        double hiValue = (hi - 1) * Math.min(baseRdp(z, hi), theorem9Bound(gamma, z, hi));
        double interpolated = (loValue + (alpha - lo) * (hiValue - loValue)) / (alpha - 1.0);
        return Math.min(base, interpolated);
    }

    private static double baseRdp(double z, double alpha) {
        return 2.0 * alpha / (z * z);
    }

    /** The bound of Theorem 9 itself, at integer {@code alpha >= 2}, without the minimum with the base. */
    static double theorem9Bound(double gamma, double z, int alpha) {
        if (alpha < 2) {
            throw new IllegalArgumentException("Theorem 9 needs an integer order >= 2, got " + alpha);
        }
        double logGamma = Math.log(gamma);
        double eps2 = baseRdp(z, 2);
        // min{4(e^{eps2} - 1), 2 e^{eps2}} in log space
        double logSecond = Math.min(Math.log(4.0) + LogMath.logExpm1(eps2), Math.log(2.0) + eps2);
        double logBinom = LogMath.logBinomial(alpha, 2);
        double logSum = LogMath.logAddExp(0.0, 2.0 * logGamma + logBinom + logSecond);
        for (int j = 3; j <= alpha; j++) {
            logBinom += Math.log((double) (alpha - j + 1) / j); // C(alpha, j) from C(alpha, j-1)
            double logTerm = Math.log(2.0) + j * logGamma + logBinom + (j - 1) * baseRdp(z, j);
            logSum = LogMath.logAddExp(logSum, logTerm);
        }
        return logSum / (alpha - 1.0);
    }
}
