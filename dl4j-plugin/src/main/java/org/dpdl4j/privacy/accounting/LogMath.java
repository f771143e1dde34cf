package org.dpdl4j.privacy.accounting;

/**
 * Log-space arithmetic for the accountants: sums of exponentials that would overflow a double,
 * logarithms of binomial coefficients, and the logarithm of the complementary error function with
 * full relative precision in the far tail (where {@code erfc} itself underflows).
 */
final class LogMath {
    static final double LOG_SQRT_PI = 0.5 * Math.log(Math.PI);
    /** Below this argument erfc comes from the everywhere-positive power series of erf. */
    private static final double SERIES_LIMIT = 2.0;
    /** When a factor of the continued fraction is this close to 1, its value stands to rounding. */
    private static final double CONVERGED = 2 * Math.ulp(1.0);

    private LogMath() {
    }

    /** {@code ln(e^a + e^b)} without overflow; either argument may be infinite. */
    static double logAddExp(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY || b == Double.POSITIVE_INFINITY) {
            return b;
        }
        if (b == Double.NEGATIVE_INFINITY || a == Double.POSITIVE_INFINITY) {
            return a;
        }
        double hi = Math.max(a, b);
        return hi + Math.log1p(Math.exp(Math.min(a, b) - hi));
    }

    /** {@code ln(e^a - e^b)} for {@code a >= b}; {@code -inf} when they are equal. */
    static double logSubExp(double a, double b) {
        if (b > a) {
            throw new IllegalArgumentException("logSubExp needs a >= b, got a=" + a + ", b=" + b);
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        if (a == b) {
            return Double.NEGATIVE_INFINITY;
        }
        return a + Math.log(-Math.expm1(b - a));
    }

    /** {@code ln(1 + e^x)}, accurate for very negative and very positive x. */
    static double log1pExp(double x) {
        return x < 0 ? Math.log1p(Math.exp(x)) : x + Math.log1p(Math.exp(-x));
    }

    /** {@code ln(e^c - 1)} for {@code c > 0}, accurate for tiny and for huge c. */
    static double logExpm1(double c) {
        return c < 1.0 ? Math.log(Math.expm1(c)) : c + Math.log1p(-Math.exp(-c));
    }

    /** {@code ln C(n, k)} for integers {@code 0 <= k <= n}, by a running product (exact to rounding). */
    static double logBinomial(int n, int k) {
        if (k < 0 || k > n) {
            throw new IllegalArgumentException("binomial coefficient needs 0 <= k <= n, got n=" + n + ", k=" + k);
        }
        int m = Math.min(k, n - k);
        double s = 0.0;
        for (int i = 1; i <= m; i++) {
            s += Math.log((double) (n - m + i) / i);
        }
        return s;
    }

    /**
     * {@code ln erfc(x)} for every real x. Relative accuracy of erfc is about 1e-14 or better on
     * the whole line, including arguments where {@code erfc(x)} underflows a double (x &gt; 26).
     */
    static double logErfc(double x) {
        if (Double.isNaN(x)) {
            throw new IllegalArgumentException("logErfc argument is NaN");
        }
        if (x == Double.POSITIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        if (x < 0) {
            // erfc(x) = 2 - erfc(-x) lies in (1, 2]: no cancellation.
            return Math.log(2.0 - Math.exp(logErfc(-x)));
        }
        if (x < SERIES_LIMIT) {
            return Math.log1p(-erfPositiveSeries(x));
        }
        return -x * x - LOG_SQRT_PI - Math.log(erfcContinuedFraction(x));
    }

    /**
     * erf(x) for {@code 0 <= x < 2} from {@code erf(x) = (2/sqrt(pi)) e^{-x^2} sum_n 2^n x^{2n+1}/(2n+1)!!},
     * whose terms are all positive (the Taylor series of erf alternates and cancels).
     */
    private static double erfPositiveSeries(double x) {
        double term = x;
        double sum = x;
        double twoXSquared = 2.0 * x * x;
        for (int n = 0; n < 500; n++) {
            term *= twoXSquared / (2 * n + 3);
            sum += term;
            if (term < 1e-17 * sum) {
                break;
            }
        }
        return 2.0 / Math.sqrt(Math.PI) * Math.exp(-x * x) * sum;
    }

    /**
     * The continued fraction {@code x + (1/2)/(x + (2/2)/(x + (3/2)/(x + ...)))}, equal to
     * {@code e^{-x^2} / (sqrt(pi) erfc(x))}; evaluated with the modified Lentz method, for x &gt;= 2.
     */
    private static double erfcContinuedFraction(double x) {
        double f = x;
        double c = x;
        double d = 0.0;
        for (int n = 1; n <= 5000; n++) {
            double a = 0.5 * n;
            d = x + a * d;
            d = 1.0 / d;
            c = x + a / c;
            double delta = c * d;
            f *= delta;
            // Within two units in the last place: for large x, x * (1/x) alone can miss 1 by one unit forever.
            if (Math.abs(delta - 1.0) <= CONVERGED) {
                return f;
            }
        }
        throw new IllegalStateException("continued fraction of erfc did not converge at x=" + x);
    }
}
