package org.dpdl4j.experiments.tuning;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.function.DoubleUnaryOperator;

/**
 * The largest epsilon each candidate may be calibrated to so that the released model, tuning included, stays within a
 * total: a geometric bisection over the total's price at a candidate epsilon, rounded down to 4 significant digits (what
 * reports show is then exactly what the candidates use). The price grows with the candidates' epsilon.
 */
final class CandidateEpsilon {
    private static final int STEPS = 14;

    /** Why no candidate epsilon meets the total. */
    static final class Unreachable extends Exception {
        private static final long serialVersionUID = 1L;
        private final double lowest;

        Unreachable(double lowest) {
            super(null, null, false, false);
            this.lowest = lowest;
        }

        /** The smallest candidate epsilon tried, whose tuning still cost more; NaN when not even one can be calibrated. */
        double lowest() {
            return lowest;
        }
    }

    private CandidateEpsilon() {
    }

    /**
     * @param totalAt the total epsilon with candidates at a given epsilon; +Infinity when no noise reaches it
     * @param goal    the total the released model may spend
     * @throws Unreachable when the total cannot be met
     */
    static double within(DoubleUnaryOperator totalAt, double goal) throws Unreachable {
        if (totalAt.applyAsDouble(goal) == Double.POSITIVE_INFINITY) {
            throw new Unreachable(Double.NaN);
        }
        double high = goal;
        double low = goal / 2;
        while (totalAt.applyAsDouble(low) > goal) {
            high = low;
            low /= 2;
            if (low < goal * 1e-4) {
                throw new Unreachable(low * 2);
            }
        }
        for (int i = 0; i < STEPS; i++) {
            double mid = Math.sqrt(low * high);
            if (totalAt.applyAsDouble(mid) <= goal) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return new BigDecimal(low).round(new MathContext(4, RoundingMode.FLOOR)).doubleValue();
    }
}
