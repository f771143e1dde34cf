package org.dpdl4j.privacy.ledger;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Epsilons as text for statements: rounded up, never to nearest, so that a shown epsilon is never below the bound it
 * shows (1.00004 reads 1.0001, not 1.0000). A value within a relative 1e-12 of a shown value reads as that value: a run
 * calibrated to epsilon = 4 whose bound computes to 4.000000000000002 reads 4.0000, as that excess is below the
 * floating-point error of the accountants themselves.
 */
public final class EpsilonFormat {
    private EpsilonFormat() {
    }

    /** {@code epsilon} with four decimals, rounded up; "Infinity" or "NaN" as Java writes them. */
    public static String upward(double epsilon) {
        return upward(epsilon, 4);
    }

    /** {@code epsilon} with {@code decimals} decimals, rounded up. */
    public static String upward(double epsilon, int decimals) {
        if (!Double.isFinite(epsilon)) {
            return Double.toString(epsilon);
        }
        BigDecimal exact = new BigDecimal(epsilon);
        BigDecimal nearest = exact.setScale(decimals, RoundingMode.HALF_EVEN);
        boolean onTheGrid = Math.abs(nearest.doubleValue() - epsilon) <= 1e-12 * Math.abs(epsilon);
        return (onTheGrid ? nearest : exact.setScale(decimals, RoundingMode.CEILING)).toPlainString();
    }
}
