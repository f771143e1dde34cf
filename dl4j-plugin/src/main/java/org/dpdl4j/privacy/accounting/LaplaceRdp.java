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
        double a = Math.log(alpha / (2.0 * alpha - 1.0)) + (alpha - 1.0) / lambda;
        double b = Math.log((alpha - 1.0) / (2.0 * alpha - 1.0)) - alpha / lambda;
        return LogMath.logAddExp(a, b) / (alpha - 1.0);
    }
}
