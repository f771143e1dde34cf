package org.dpdl4j.privacy.ledger;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Bounds as text for statements, never rounded to nearest: upper bounds (epsilon, delta, rho) up, so that a shown bound
 * is never below the bound it shows (1.00004 reads 1.0001, not 1.0000), and an audit's lower bounds down. A value within
 * a relative 1e-12 of a shown value reads as that value: a run calibrated to epsilon = 4 whose bound computes to
 * 4.000000000000002 reads 4.0000, as that excess is below the floating-point error of the accountants themselves.
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
        return rounded(epsilon, decimals, RoundingMode.CEILING);
    }

    /**
     * A lower bound (an audit's epsilon that a run provably does not beat) with {@code decimals} decimals, rounded down,
     * so that a shown lower bound claims no more leakage than was proven (but for the relative 1e-12 within which a value
     * reads as the shown one); "Infinity" or "NaN" as Java writes them.
     */
    public static String downward(double lowerBound, int decimals) {
        return rounded(lowerBound, decimals, RoundingMode.FLOOR);
    }

    /** {@code value} with {@code decimals} decimals, rounded in {@code direction} unless within 1e-12 of a shown value. */
    private static String rounded(double value, int decimals, RoundingMode direction) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        BigDecimal exact = new BigDecimal(value);
        BigDecimal nearest = exact.setScale(decimals, RoundingMode.HALF_EVEN);
        boolean onTheGrid = Math.abs(nearest.doubleValue() - value) <= 1e-12 * Math.abs(value);
        return (onTheGrid ? nearest : exact.setScale(decimals, direction)).toPlainString();
    }

    /**
     * A bound with {@code digits} significant digits, rounded up, written as {@code %g} writes it (a delta of
     * 1.8000001e-5 reads 1.81e-05 at three digits); "Infinity" or "NaN" as Java writes them.
     */
    public static String upwardSignificant(double bound, int digits) {
        if (!Double.isFinite(bound)) {
            return Double.toString(bound);
        }
        if (bound == 0) {
            return String.format(Locale.ROOT, "%." + digits + "g", 0.0);
        }
        BigDecimal exact = new BigDecimal(bound);
        BigDecimal nearest = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
        boolean onTheGrid = Math.abs(nearest.doubleValue() - bound) <= 1e-12 * Math.abs(bound);
        BigDecimal shown = onTheGrid ? nearest : exact.round(new MathContext(digits, RoundingMode.CEILING));
        return String.format(Locale.ROOT, "%." + digits + "g", shown.doubleValue());
    }
}
