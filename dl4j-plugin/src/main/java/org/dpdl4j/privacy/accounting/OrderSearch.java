package org.dpdl4j.privacy.accounting;

import java.util.function.DoubleUnaryOperator;

/**
 * Minimisation over a continuous RDP order {@code alpha > 1}, for curves known in closed form. Any
 * order gives a valid bound, so the search only affects tightness: a log-spaced scan of
 * {@code alpha - 1} around a starting guess, refined by golden-section search in the best cell.
 */
final class OrderSearch {
    private static final int SCAN_POINTS = 801;
    private static final double SCAN_HALF_WIDTH = 12.0; // in ln(alpha - 1), around the guess
    private static final double INV_PHI = (Math.sqrt(5.0) - 1.0) / 2.0;

    /** The minimiser and the minimum. */
    record Minimum(double order, double value) {
    }

    private OrderSearch() {
    }

    /**
     * @param objective the bound as a function of the order
     * @param guess a starting order {@code > 1} (e.g. the optimum of a related closed form)
     */
    static Minimum minimize(DoubleUnaryOperator objective, double guess) {
        double center = Math.log(guess - 1.0);
        double step = 2.0 * SCAN_HALF_WIDTH / (SCAN_POINTS - 1);
        int bestIndex = -1;
        double bestValue = Double.POSITIVE_INFINITY;
        for (int k = 0; k < SCAN_POINTS; k++) {
            double value = objective.applyAsDouble(1.0 + Math.exp(center - SCAN_HALF_WIDTH + k * step));
            if (value < bestValue) {
                bestValue = value;
                bestIndex = k;
            }
        }
        if (bestIndex < 0) {
            return new Minimum(Double.NaN, Double.POSITIVE_INFINITY);
        }
        double a = center - SCAN_HALF_WIDTH + Math.max(0, bestIndex - 1) * step;
        double b = center - SCAN_HALF_WIDTH + Math.min(SCAN_POINTS - 1, bestIndex + 1) * step;
        double bestOrder = 1.0 + Math.exp(center - SCAN_HALF_WIDTH + bestIndex * step);
        for (int iter = 0; iter < 100 && b - a > 1e-12; iter++) {
            double x1 = b - INV_PHI * (b - a);
            double x2 = a + INV_PHI * (b - a);
            double f1 = objective.applyAsDouble(1.0 + Math.exp(x1));
            double f2 = objective.applyAsDouble(1.0 + Math.exp(x2));
            if (f1 < bestValue) {
                bestValue = f1;
                bestOrder = 1.0 + Math.exp(x1);
            }
            if (f2 < bestValue) {
                bestValue = f2;
                bestOrder = 1.0 + Math.exp(x2);
            }
            if (f1 < f2) {
                b = x2;
            } else {
                a = x1;
            }
        }
        return new Minimum(bestOrder, bestValue);
    }
}
