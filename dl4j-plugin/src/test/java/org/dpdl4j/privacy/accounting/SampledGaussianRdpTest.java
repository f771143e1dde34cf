package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

class SampledGaussianRdpTest {
    private static final double DP_SGD_Q = 256.0 / 60000.0;

    /**
     * Oracle independent of both series: {@code A_alpha - 1 = \int N(x; 0, z^2) [(1 - q + q e^{(2x-1)/(2z^2)})^alpha - 1] dx}
     * by Simpson's rule (integrating the excess over 1 keeps the relative precision of small losses).
     */
    private static double rdpByIntegration(double q, double z, double alpha) {
        double logQ = Math.log(q);
        double log1mQ = Math.log1p(-q);
        double logNorm = -0.5 * Math.log(2.0 * Math.PI) - Math.log(z);
        double excess = Quadrature.integral(x -> {
            double logDensity = logNorm - x * x / (2 * z * z);
            double logPower = alpha * LogMath.logAddExp(log1mQ, logQ + (2 * x - 1) / (2 * z * z));
            return Math.exp(logDensity) * Math.expm1(logPower);
        }, new double[] {-40 * z, 0.5, alpha + 40 * z}, 200_000);
        return Math.log1p(excess) / (alpha - 1);
    }

    @Test
    void integerAndRealOrdersAgreeWithNumericalIntegration() {
        double[][] cases = {
                // q, z, alpha
                {DP_SGD_Q, 1.1, 2}, {DP_SGD_Q, 1.1, 10}, {DP_SGD_Q, 1.1, 1.25}, {DP_SGD_Q, 1.1, 1.5},
                {DP_SGD_Q, 1.1, 1.75}, {DP_SGD_Q, 1.1, 8.75}, {0.01, 0.5, 1.5}, {0.01, 0.5, 3},
                {0.3, 2.0, 3.5}, {0.3, 2.0, 4}, {0.7, 1.0, 2.5}, {0.5, 1.0, 1.05}, {0.05, 5.0, 17.5},
        };
        for (double[] c : cases) {
            double expected = rdpByIntegration(c[0], c[1], c[2]);
            double actual = SampledGaussianRdp.rdp(c[0], c[1], c[2]);
            assertEquals(expected, actual, 1e-9 * expected, "q=" + c[0] + " z=" + c[1] + " alpha=" + c[2]);
        }
    }

    @Test
    void realOrderSeriesAtIntegerOrdersEqualsTheBinomialExpansion() {
        for (int alpha : new int[] {2, 3, 7, 20}) {
            for (double q : new double[] {0.001, 0.2, 0.6}) {
                double binomial = SampledGaussianRdp.logAInteger(q, 1.3, alpha);
                assertEquals(binomial, SampledGaussianRdp.logAFractional(q, 1.3, alpha), 1e-10 * binomial,
                        "alpha=" + alpha + " q=" + q);
            }
        }
    }

    @Test
    void fullSamplingIsTheGaussianMechanism() {
        double z = 1.7;
        for (double alpha : new double[] {1.25, 1.5, 2, 2.5, 10, 64}) {
            assertEquals(alpha / (2 * z * z), SampledGaussianRdp.rdp(1.0, z, alpha), 0.0);
        }
        // The series themselves tend to the Gaussian curve as q -> 1 (q = 1 is special-cased above).
        double q = 1.0 - 1e-12;
        for (int alpha : new int[] {2, 5, 30}) {
            assertEquals(alpha / (2 * z * z), SampledGaussianRdp.logAInteger(q, z, alpha) / (alpha - 1), 1e-9);
        }
        for (double alpha : new double[] {1.5, 2.5, 7.25}) {
            assertEquals(alpha / (2 * z * z), SampledGaussianRdp.logAFractional(q, z, alpha) / (alpha - 1), 1e-9);
        }
    }

    @Test
    void rdpIsMonotoneInRateAndOrderAndBelowTheUnsampledGaussian() {
        double z = 0.9;
        double[] orders = RdpAccountant.defaultOrders();
        double[] rates = {1e-4, 1e-3, 0.01, 0.1, 0.5, 0.9};
        for (int r = 0; r < rates.length; r++) {
            double previousOrder = 0.0;
            for (double alpha : orders) {
                double v = SampledGaussianRdp.rdp(rates[r], z, alpha);
                assertTrue(v > 0 && v <= alpha / (2 * z * z) * (1 + 1e-12), "q=" + rates[r] + " alpha=" + alpha);
                assertTrue(v >= previousOrder * (1 - 1e-9), "non-decreasing in the order at alpha=" + alpha);
                previousOrder = v;
                if (r > 0) {
                    assertTrue(v >= SampledGaussianRdp.rdp(rates[r - 1], z, alpha), "non-decreasing in q");
                }
            }
        }
    }

    @Test
    void tinyLossesStayUpperBoundsBetweenTheTrueLeadingTermAndTheNextIntegerOrder() {
        double q = 0.01;
        for (double z : new double[] {1e3, 1e5, 1e8}) {
            for (double alpha : new double[] {1.05, 1.5, 3, 3.5}) {
                double v = SampledGaussianRdp.rdp(q, z, alpha);
                // For large z the true value is alpha q^2 / (2 z^2) (1 + O(1/z^2)); a valid bound is above it
                // and, by monotonicity in the order, need not exceed the value at ceil(alpha).
                double leading = alpha * q * q / (2 * z * z);
                double ceiling = Math.ceil(alpha) * q * q / (2 * z * z);
                assertTrue(v >= leading * (1 - 1e-3) && v <= ceiling * (1 + 1e-3),
                        "z=" + z + " alpha=" + alpha + " rdp=" + v + " leading term=" + leading);
                assertTrue(v <= alpha / (2 * z * z), "never above the unsampled Gaussian");
            }
        }
    }

    /**
     * Noise so small that the exponents (of order alpha^2 / z^2) leave the range of a double: never NaN and never an
     * error, never below the true value (which tends to alpha / (2 z^2)), and +inf where even that overflows.
     */
    @Test
    void vanishingNoiseGivesAnUpperBoundOrInfinityNeverNaN() {
        double q = 0.01;
        for (double z : new double[] {1e-10, 1e-100, 1e-153, 1e-160, 1e-300}) {
            for (double alpha : RdpAccountant.defaultOrders()) {
                double v = SampledGaussianRdp.rdp(q, z, alpha);
                double gaussian = alpha / (2 * z * z);
                assertTrue(v >= 0.99 * gaussian, "z=" + z + " alpha=" + alpha + " rdp=" + v);
                if (Double.isInfinite(gaussian)) {
                    assertEquals(Double.POSITIVE_INFINITY, v, "z=" + z + " alpha=" + alpha);
                }
            }
        }
        assertEquals(Double.POSITIVE_INFINITY, DpSgd.accountant(q, 1e-300, 10).epsilon(1e-5));
    }

    /**
     * Oracle independent of double rounding: A_alpha for the DP-SGD example in 50-digit decimal
     * arithmetic, the binomial coefficients as exact integers.
     */
    @Test
    void dpSgdExampleMatchesFiftyDigitArithmetic() {
        MathContext mc = new MathContext(50);
        BigDecimal q = BigDecimal.valueOf(256).divide(BigDecimal.valueOf(60000), mc);
        BigDecimal oneMinusQ = BigDecimal.ONE.subtract(q);
        BigDecimal twoZ2 = new BigDecimal("2.42"); // 2 * 1.1^2
        for (int alpha : new int[] {10, 32}) {
            BigDecimal sum = BigDecimal.ZERO;
            BigInteger binom = BigInteger.ONE;
            for (int k = 0; k <= alpha; k++) {
                if (k > 0) {
                    binom = binom.multiply(BigInteger.valueOf(alpha - k + 1)).divide(BigInteger.valueOf(k));
                }
                BigDecimal exponent = BigDecimal.valueOf((long) k * k - k).divide(twoZ2, mc);
                BigDecimal term = new BigDecimal(binom).multiply(q.pow(k, mc), mc)
                        .multiply(oneMinusQ.pow(alpha - k, mc), mc).multiply(exp(exponent, mc), mc);
                sum = sum.add(term, mc);
            }
            double excess = sum.subtract(BigDecimal.ONE, mc).doubleValue();
            double expected = Math.log1p(excess) / (alpha - 1);
            assertEquals(expected, SampledGaussianRdp.rdp(DP_SGD_Q, 1.1, alpha), 1e-13 * expected, "alpha=" + alpha);
        }
    }

    /** e^x for x >= 0 in decimal arithmetic: halve until x < 1, Taylor series, square back. */
    private static BigDecimal exp(BigDecimal x, MathContext mc) {
        MathContext wide = new MathContext(mc.getPrecision() + 20);
        int halvings = 0;
        BigDecimal r = x;
        while (r.compareTo(BigDecimal.ONE) > 0) {
            r = r.divide(BigDecimal.valueOf(2), wide);
            halvings++;
        }
        BigDecimal term = BigDecimal.ONE;
        BigDecimal sum = BigDecimal.ONE;
        for (int n = 1; n < 200; n++) {
            term = term.multiply(r, wide).divide(BigDecimal.valueOf(n), wide);
            sum = sum.add(term, wide);
            if (term.compareTo(BigDecimal.ONE.movePointLeft(wide.getPrecision())) < 0) {
                break;
            }
        }
        for (int i = 0; i < halvings; i++) {
            sum = sum.multiply(sum, wide);
        }
        return sum.round(mc);
    }
}
