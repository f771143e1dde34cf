package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LogMathTest {

    /** ln erfc(x), reference values computed with 40-digit arithmetic (mpmath). */
    @Test
    void logErfcMatchesHighPrecisionValuesAcrossTheLine() {
        double[][] golden = {
                {-30, 0.69314718055994530942}, {-5, 0.69314718055917657952}, {-1, 0.61123231767807049464},
                {-1e-3, 0.0011277426501148765306}, {1e-5, -0.000011283855333035134909},
                {0.5, -0.73501112983708440303}, {1, -1.8496055099332482486}, {1.5, -3.3844920895515527203},
                {1.999, -5.3605240275450162944}, {2, -5.3649412646166375745}, {2.001, -5.3693603491899353606},
                {2.5, -7.8068152727272643589}, {3, -10.720363041981112568}, {5, -27.200889545537434422},
                {10, -102.87988902484488857}, {26, -679.83119976319423026}, {30, -903.97411711064387808},
                {100, -10005.177585122664333}, {1e4, -100000009.7827053199},
        };
        for (double[] g : golden) {
            // absolute error of ln erfc = relative error of erfc
            assertEquals(g[1], LogMath.logErfc(g[0]), 2e-13 * Math.max(1.0, Math.abs(g[1])), "x=" + g[0]);
        }
        // Far tail: ln erfc(x) = -x^2 - ln(x sqrt(pi)) - 1/(2x^2) + ..., where x * (1/x) need not round to 1.
        for (double x : new double[] {5.314750874958087e9, 1e12, 1e100}) {
            double expected = -x * x - Math.log(x) - LogMath.LOG_SQRT_PI;
            assertEquals(expected, LogMath.logErfc(x), 1e-15 * Math.abs(expected), "x=" + x);
            assertEquals(Math.log(2.0), LogMath.logErfc(-x), 1e-15, "x=" + -x);
        }
        assertEquals(Double.NEGATIVE_INFINITY, LogMath.logErfc(2.474873734152916e300));   // below the smallest double
        assertEquals(0.0, LogMath.logErfc(0.0), 0.0);
        assertEquals(Double.NEGATIVE_INFINITY, LogMath.logErfc(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> LogMath.logErfc(Double.NaN));
    }

    @Test
    void logSpaceSumsAreExactWhereTheyCanBeCheckedAndDoNotOverflow() {
        assertEquals(Math.log(5.0), LogMath.logAddExp(Math.log(2.0), Math.log(3.0)), 1e-15);
        assertEquals(1000.0 + Math.log(2.0), LogMath.logAddExp(1000.0, 1000.0), 1e-12);
        assertEquals(7.0, LogMath.logAddExp(Double.NEGATIVE_INFINITY, 7.0), 0.0);
        assertEquals(Double.POSITIVE_INFINITY, LogMath.logAddExp(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
        assertEquals(Double.POSITIVE_INFINITY, LogMath.logAddExp(3.0, Double.POSITIVE_INFINITY));
        assertEquals(Math.log(1.0), LogMath.logSubExp(Math.log(3.0), Math.log(2.0)), 1e-15);
        assertEquals(Double.NEGATIVE_INFINITY, LogMath.logSubExp(4.0, 4.0));
        assertThrows(IllegalArgumentException.class, () -> LogMath.logSubExp(1.0, 2.0));
        assertEquals(Math.log1p(Math.exp(-800.0)), LogMath.log1pExp(-800.0), 0.0);
        assertEquals(800.0, LogMath.log1pExp(800.0), 1e-12);
        assertEquals(Math.log(1e-300), LogMath.logExpm1(1e-300), 1e-12);
        assertEquals(700.0, LogMath.logExpm1(700.0), 1e-12);
    }

    @Test
    void logBinomialMatchesExactIntegers() {
        assertEquals(Math.log(252.0), LogMath.logBinomial(10, 5), 1e-14);
        assertEquals(0.0, LogMath.logBinomial(7, 0), 0.0);
        assertEquals(0.0, LogMath.logBinomial(7, 7), 0.0);
        // C(256, 128) = 5.7686588234492064e75 (exact integer, rounded)
        assertEquals(Math.log(5.7686588234492064e75), LogMath.logBinomial(256, 128), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> LogMath.logBinomial(3, 4));
    }
}
