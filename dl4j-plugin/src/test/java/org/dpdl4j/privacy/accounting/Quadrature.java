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
}
