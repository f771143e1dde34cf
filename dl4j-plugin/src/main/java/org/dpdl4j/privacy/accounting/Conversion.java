package org.dpdl4j.privacy.accounting;

/**
 * How an RDP guarantee {@code (alpha, eps_R)} becomes an {@code (eps, delta)}-DP guarantee. Every
 * accountant minimises the chosen bound over its orders.
 */
public enum Conversion {
    /**
     * Mironov 2017, Prop. 3: {@code eps = eps_R + ln(1/delta)/(alpha-1)}. The default everywhere, as in
     * the papers this library reproduces.
     */
    STANDARD {
        @Override
        double epsilon(double alpha, double rdp, double delta) {
            return rdp - Math.log(delta) / (alpha - 1.0);
        }

        @Override
        double logDelta(double alpha, double rdp, double epsilon) {
            return -(alpha - 1.0) * (epsilon - rdp);
        }
    },
    /**
     * Balle et al. 2020 (Thm. 21) / Canonne, Kamath &amp; Steinke 2020 (Prop. 12):
     * {@code eps = eps_R + ln((alpha-1)/alpha) - (ln delta + ln alpha)/(alpha-1)}, smaller than
     * {@link #STANDARD} at every order by {@code ln(alpha/(alpha-1)) + ln(alpha)/(alpha-1) > 0}.
     * A negative value means the guarantee holds with {@code eps = 0}.
     */
    IMPROVED {
        @Override
        double epsilon(double alpha, double rdp, double delta) {
            return rdp + Math.log1p(-1.0 / alpha) - (Math.log(delta) + Math.log(alpha)) / (alpha - 1.0);
        }

        @Override
        double logDelta(double alpha, double rdp, double epsilon) {
            return (alpha - 1.0) * (rdp - epsilon + Math.log1p(-1.0 / alpha)) - Math.log(alpha);
        }
    };

    /** The epsilon this conversion gives at one order, before the minimum over orders. */
    abstract double epsilon(double alpha, double rdp, double delta);

    /** The log of the delta this conversion gives at one order for the target epsilon, uncapped. */
    abstract double logDelta(double alpha, double rdp, double epsilon);
}
