package org.dpdl4j.privacy.accounting;

/**
 * RDP of the Poisson-subsampled Gaussian mechanism under add-or-remove-one adjacency
 * (Mironov, Talwar &amp; Zhang 2019, "Renyi Differential Privacy of the Sampled Gaussian Mechanism").
 *
 * <p>With {@code mu0 = N(0, z^2)}, {@code mu1 = N(1, z^2)} and {@code mu = (1-q) mu0 + q mu1}, the
 * worst case of the two directions is {@code D_alpha(mu || mu0) = ln(A_alpha)/(alpha-1)}, where
 * {@code A_alpha = E_{x~mu0}[(1 - q + q e^{(2x-1)/(2z^2)})^alpha]} (ibid., Sec. 3.3).
 * <ul>
 *   <li>Integer alpha: the binomial expansion
 *   {@code A_alpha = sum_k C(alpha,k) q^k (1-q)^{alpha-k} e^{(k^2-k)/(2z^2)}}. It is evaluated as
 *   {@code ln(1 + sum_k w_k (e^{c_k}-1))} with the binomial weights {@code w_k}, so that tiny losses
 *   (large z) keep their relative precision.</li>
 *   <li>Real alpha: the integral is split at {@code x0 = z^2 ln(1/q - 1) + 1/2}, where
 *   {@code q e^{(2x-1)/(2z^2)} = 1-q}; on each side the power is expanded in the binomial series of
 *   the smaller term, and each term integrates to a Gaussian tail ({@code erfc}). The two alternating
 *   series are summed in log space, positive and negative terms apart. When the loss is so small
 *   ({@code eps_R(2) < 1e-8}) that these series would cancel to noise, real orders use instead the
 *   chord of the convex function {@code ln A_alpha} between the neighbouring integer orders, a valid
 *   upper bound; so do they when the noise is so small (below about 1e-150) that the series' terms would overflow.
 *   Where even the integer orders overflow a double, the RDP is reported as {@code +inf}, an upper bound.</li>
 * </ul>
 */
final class SampledGaussianRdp {
    /** Stop the real-order series once a term is below {@code e^-36} times the running sum. */
    private static final double LOG_RELATIVE_TOLERANCE = -36.0;
    private static final int MAX_TERMS = 2_000_000;
    /**
     * Below this value of {@code eps_R(2)} the real-order series would lose relative precision to
     * cancellation (its terms are of order q while the result is of order {@code q^2/z^2}); real
     * orders then use the chord of {@code ln A_alpha} between the neighbouring integer orders.
     */
    private static final double SERIES_PRECISION_FLOOR = 1e-8;
    /**
     * Above this value of {@code alpha^2 / (2 z^2)}, the scale of the real-order series' exponents (a noise multiplier
     * below about 1e-150), its terms would overflow; real orders then use the same chord.
     */
    private static final double SERIES_EXPONENT_LIMIT = 1e300;

    private SampledGaussianRdp() {
    }

    /**
     * RDP at order alpha of the Gaussian mechanism with noise multiplier z (sensitivity 1, std z)
     * applied to a Poisson sample with rate q.
     */
    static double rdp(double q, double z, double alpha) {
        if (q == 0.0 || z == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        if (z == 0.0) {
            return Double.POSITIVE_INFINITY;
        }
        if (q == 1.0) {
            return alpha / (2.0 * z * z);
        }
        if (isInteger(alpha)) {
            return logAInteger(q, z, (int) alpha) / (alpha - 1.0);
        }
        if (logAInteger(q, z, 2) >= SERIES_PRECISION_FLOOR && alpha * alpha / (2.0 * z * z) < SERIES_EXPONENT_LIMIT) {
            return logAFractional(q, z, alpha) / (alpha - 1.0);
        }
        // ln A_alpha = (alpha-1) D_alpha is convex in alpha (Hoelder) and 0 at alpha = 1, so its chord
        // between the neighbouring integers bounds it from above (+inf where even they overflow: an upper bound).
        int lo = (int) Math.floor(alpha);
        double t = alpha - lo;
        double logALo = lo == 1 ? 0.0 : logAInteger(q, z, lo);
        return ((1.0 - t) * logALo + t * logAInteger(q, z, lo + 1)) / (alpha - 1.0);
    }

    static boolean isInteger(double alpha) {
        return alpha == Math.rint(alpha) && alpha <= Integer.MAX_VALUE;
    }

    /** {@code ln A_alpha} for integer {@code alpha >= 2}, {@code 0 < q < 1}, {@code 0 < z < inf}. */
    static double logAInteger(double q, double z, int alpha) {
        double logQ = Math.log(q);
        double log1mQ = Math.log1p(-q);
        double twoZ2 = 2.0 * z * z;
        double logExcess = Double.NEGATIVE_INFINITY; // ln sum_k w_k (e^{c_k} - 1); k = 0, 1 contribute 0
        double logBinom = Math.log(alpha); // ln C(alpha, 1)
        for (int k = 2; k <= alpha; k++) {
            logBinom += Math.log((double) (alpha - k + 1) / k);
            double logWeight = logBinom + k * logQ + (alpha - k) * log1mQ;
            double c = ((double) k * k - k) / twoZ2;
            logExcess = LogMath.logAddExp(logExcess, logWeight + LogMath.logExpm1(c));
        }
        return LogMath.log1pExp(logExcess);
    }

    /** {@code ln A_alpha} for real {@code alpha > 1}, {@code 0 < q < 1}, {@code 0 < z < inf}. */
    static double logAFractional(double q, double z, double alpha) {
        double logQ = Math.log(q);
        double log1mQ = Math.log1p(-q);
        double z2 = z * z;
        double x0 = z2 * (log1mQ - logQ) + 0.5;
        double sqrt2Z = Math.sqrt(2.0) * z;
        double logPos = Double.NEGATIVE_INFINITY;
        double logNeg = Double.NEGATIVE_INFINITY;
        double binom = 1.0; // C(alpha, i), real, its sign alternates once i > alpha
        for (int i = 0; i < MAX_TERMS; i++) {
            if (i > 0) {
                binom *= (alpha - i + 1) / i;
            }
            if (binom == 0.0) {
                break; // integer alpha: the expansion is finite
            }
            double logBinom = Math.log(Math.abs(binom));
            double j = alpha - i;
            // Left of x0: expand in powers of the sampled component, exponent i.
            double logLeft = logBinom + i * logQ + j * log1mQ + (i * (double) i - i) / (2.0 * z2)
                    + Math.log(0.5) + LogMath.logErfc((i - x0) / sqrt2Z);
            // Right of x0: expand in powers of the unsampled component, the sampled one has exponent j.
            double logRight = logBinom + j * logQ + i * log1mQ + (j * j - j) / (2.0 * z2)
                    + Math.log(0.5) + LogMath.logErfc((x0 - j) / sqrt2Z);
            double logTerm = LogMath.logAddExp(logLeft, logRight);
            if (binom > 0) {
                logPos = LogMath.logAddExp(logPos, logTerm);
            } else {
                logNeg = LogMath.logAddExp(logNeg, logTerm);
            }
            if (i > alpha && Math.max(logLeft, logRight) < logPos + LOG_RELATIVE_TOLERANCE) {
                return LogMath.logSubExp(logPos, Math.min(logNeg, logPos));
            }
        }
        if (binom == 0.0) {
            return LogMath.logSubExp(logPos, Math.min(logNeg, logPos));
        }
        throw new IllegalStateException("series for the sampled Gaussian RDP did not converge in " + MAX_TERMS
                + " terms at q=" + q + ", noise multiplier=" + z + ", order=" + alpha);
    }
}
