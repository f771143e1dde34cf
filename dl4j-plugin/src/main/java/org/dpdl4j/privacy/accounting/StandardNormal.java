package org.dpdl4j.privacy.accounting;

/**
 * The standard normal distribution with full relative precision in both tails (through {@link LogMath#logErfc}), as
 * the exact Gaussian curve and the privacy-loss distributions of Gaussian mechanisms need it: their deltas live in the
 * far tails, where {@code 1 - Phi(x)} computed as a difference would be all rounding.
 */
public final class StandardNormal {
    private static final double LOG_HALF = Math.log(0.5);
    private static final double SQRT_HALF = Math.sqrt(0.5);

    private StandardNormal() {
    }

    /** {@code ln Phi(x)}; {@code -inf} at {@code x = -inf}. */
    public static double logCdf(double x) {
        if (x == Double.NEGATIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        return LOG_HALF + LogMath.logErfc(-x * SQRT_HALF);
    }

    /** {@code Phi(x) = P(X <= x)}. */
    public static double cdf(double x) {
        return Math.exp(logCdf(x));
    }

    /** The upper tail {@code 1 - Phi(x) = Phi(-x)}, accurate where it is tiny. */
    public static double sf(double x) {
        return cdf(-x);
    }

    /**
     * {@code P(a < X <= b)} for {@code a <= b} (either may be infinite), computed from the tail that keeps it accurate:
     * a difference of two upper tails right of 0, of two lower tails left of 0, and one minus both tails across it.
     */
    public static double mass(double a, double b) {
        if (!(a <= b)) {
            throw new IllegalArgumentException("an interval needs a <= b, got (" + a + ", " + b + "]");
        }
        if (a >= 0) {
            return Math.max(0.0, sf(a) - sf(b));
        }
        if (b <= 0) {
            return Math.max(0.0, cdf(b) - cdf(a));
        }
        return Math.max(0.0, 1.0 - cdf(a) - sf(b));
    }
}
