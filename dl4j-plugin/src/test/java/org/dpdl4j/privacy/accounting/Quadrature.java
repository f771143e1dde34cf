package org.dpdl4j.privacy.accounting;

import java.util.function.DoubleUnaryOperator;

/** Test oracle: composite Simpson integration with compensated (Kahan) summation. */
final class Quadrature {
    private Quadrature() {
    }

    /** {@code \int_a^b f(x) dx} with n (even) Simpson panels. */
    static double integral(DoubleUnaryOperator f, double a, double b, int n) {
        double h = (b - a) / n;
        double sum = 0.0;
        double compensation = 0.0;
        for (int k = 0; k <= n; k++) {
            double w = (k == 0 || k == n) ? 1.0 : (k % 2 == 1 ? 4.0 : 2.0);
            double y = w * f.applyAsDouble(a + k * h) - compensation;
            double t = sum + y;
            compensation = (t - sum) - y;
            sum = t;
        }
        return sum * h / 3.0;
    }

    /** The same over consecutive segments split at the given (sorted) points, n panels each. */
    static double integral(DoubleUnaryOperator f, double[] breaks, int n) {
        double acc = 0.0;
        for (int i = 0; i + 1 < breaks.length; i++) {
            acc += integral(f, breaks[i], breaks[i + 1], n);
        }
        return acc;
    }

    /**
     * {@code \int_a^b g_+} for a g that is positive on one side of a single sign change in [a, b] (or on all or none of
     * it), as {@code p - e^eps q} is for densities with a monotone ratio: the sign change is found by bisection on g, and
     * the smooth part beyond it integrated with n Simpson panels (no kink inside the panels, so far more accurate than
     * integrating {@code g_+} itself).
     */
    static double positivePart(DoubleUnaryOperator g, double a, double b, int n) {
        boolean positiveRight = g.applyAsDouble(b) > 0;
        if (positiveRight == g.applyAsDouble(a) > 0) {
            return positiveRight ? integral(g, a, b, n) : 0.0;
        }
        double lo = a;
        double hi = b;
        for (int i = 0; i < 200; i++) {
            double m = 0.5 * (lo + hi);
            if ((g.applyAsDouble(m) > 0) == positiveRight) {
                hi = m;
            } else {
                lo = m;
            }
        }
        return positiveRight ? integral(g, hi, b, n) : integral(g, a, lo, n);
    }
}
