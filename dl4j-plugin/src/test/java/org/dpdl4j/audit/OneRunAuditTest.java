package org.dpdl4j.audit;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OneRunAuditTest {

    /** The theorem's p-value written out directly in double precision, for small r only (the oracle). */
    private static double naivePValue(long m, int r, int v, double eps, double delta) {
        double q = Math.exp(eps) / (1 + Math.exp(eps));
        double[] pmf = new double[r + 1];
        for (int k = 0; k <= r; k++) {
            double c = 1;
            for (int j = 1; j <= k; j++) {
                c = c * (r - k + j) / j;
            }
            pmf[k] = c * Math.pow(q, k) * Math.pow(1 - q, r - k);
        }
        double tail = 0;
        for (int k = v; k <= r; k++) {
            tail += pmf[k];
        }
        double alpha = 0;
        for (int i = 1; i <= v; i++) {
            double window = 0;
            for (int k = v - i; k < v; k++) {
                window += pmf[k];
            }
            alpha = Math.max(alpha, window / i);
        }
        return Math.min(1, tail + 2 * m * delta * alpha);
    }

    /** All r guesses right and delta = 0: q^r = beta, so eps = logit(beta^(1/r)) (the theorem's closed form). */
    private static double allCorrectClosedForm(int r, double beta) {
        double logQ = Math.log(beta) / r;
        return logQ - Math.log(-Math.expm1(logQ));
    }

    @Test
    void pValueMatchesTheTheoremWrittenOutDirectly() {
        for (int r : new int[]{1, 7, 20, 45}) {
            for (int v = 0; v <= r; v += Math.max(1, r / 6)) {
                for (double eps : new double[]{0, 0.3, 1, 2.5, 6}) {
                    for (double delta : new double[]{0, 1e-5, 1e-3}) {
                        long m = 3L * r + 5;
                        double expected = naivePValue(m, r, v, eps, delta);
                        double got = OneRunAudit.pValue(m, r, v, eps, delta);
                        assertEquals(expected, got, 1e-12 + 1e-10 * expected,
                                "m=" + m + " r=" + r + " v=" + v + " eps=" + eps + " delta=" + delta);
                    }
                }
            }
        }
    }

    @Test
    void allCorrectWithoutDeltaMatchesTheClosedForm() {
        for (int r : new int[]{1, 10, 100, 1000, 10000}) {
            for (double confidence : new double[]{0.9, 0.95, 0.99}) {
                // Negative when even r right guesses are likely at eps = 0 (r = 1): the bound is then 0.
                double expected = Math.max(0, allCorrectClosedForm(r, 1 - confidence));
                double got = OneRunAudit.epsilonLowerBound(r, r, r, 0.0, confidence);
                assertEquals(expected, got, 1e-7, "r=" + r + " confidence=" + confidence);
            }
        }
        // r = 100 perfect guesses at 95%: eps >= 3.4933 (logit of 0.05^(1/100)).
        assertEquals(3.4933, OneRunAudit.epsilonLowerBound(100, 100, 100, 0.0), 5e-4);
    }

    @Test
    void theBoundIsTheFirstEpsilonNotRejected() {
        long m = 1000;
        int r = 300;
        int v = 240;
        double delta = 1e-5;
        double eps = OneRunAudit.epsilonLowerBound(m, r, v, delta, 0.95);
        assertTrue(eps > 0.5, "eps = " + eps);
        assertTrue(OneRunAudit.pValue(m, r, v, eps, delta) < 0.05);
        assertTrue(OneRunAudit.pValue(m, r, v, eps + 1e-6, delta) >= 0.05 - 1e-9);
        for (double e = 0; e < eps; e += 0.001) {
            assertTrue(OneRunAudit.pValue(m, r, v, e, delta) < 0.05, "eps " + e + " below the bound is not rejected");
        }
    }

    @Test
    void guessesAtChanceGiveZero() {
        for (int r : new int[]{1, 10, 100, 1000}) {
            assertEquals(0.0, OneRunAudit.epsilonLowerBound(r, r, r / 2, 0.0));
            assertEquals(0.0, OneRunAudit.epsilonLowerBound(2L * r, r, r / 2, 1e-5));
            assertEquals(0.0, OneRunAudit.epsilonLowerBound(r, r, 0, 0.0));
        }
        assertEquals(0.0, OneRunAudit.epsilonLowerBound(10, 0, 0, 0.0));
    }

    @Test
    void monotoneInCorrectGuessesAndInConfidence() {
        int r = 500;
        double previous = -1;
        for (int v = 0; v <= r; v += 5) {
            double eps = OneRunAudit.epsilonLowerBound(1000, r, v, 1e-5);
            assertTrue(eps >= previous, "v=" + v + ": " + eps + " < " + previous);
            previous = eps;
        }
        assertTrue(previous > 4, "all 500 right: " + previous);
        double at90 = OneRunAudit.epsilonLowerBound(1000, r, 400, 1e-5, 0.90);
        double at99 = OneRunAudit.epsilonLowerBound(1000, r, 400, 1e-5, 0.99);
        assertTrue(at90 > at99, at90 + " vs " + at99);
    }

    @Test
    void deltaLowersTheBoundAndScalesWithTheCanaries() {
        int r = 200;
        int v = 200;
        double none = OneRunAudit.epsilonLowerBound(1000, r, v, 0.0);
        double small = OneRunAudit.epsilonLowerBound(1000, r, v, 1e-6);
        double large = OneRunAudit.epsilonLowerBound(1000, r, v, 1e-4);
        assertTrue(none > small && small > large, none + " " + small + " " + large);
        // The delta term is 2 m delta * alpha: more canaries, the same r and v, a weaker bound.
        assertTrue(OneRunAudit.epsilonLowerBound(100_000, r, v, 1e-4) < large);
        // Too large a delta term makes every eps acceptable: 2 m delta >= 1 at v = r = 1 gives nothing.
        assertEquals(0.0, OneRunAudit.epsilonLowerBound(1, 1, 1, 0.5));
        // With delta = 0 the number of canaries m does not matter.
        assertEquals(none, OneRunAudit.epsilonLowerBound(50_000, r, v, 0.0), 1e-12);
    }

    @Test
    void anEpsilonDpGuesserExceedsItsEpsilonAtMostBetaOfTheTime() {
        // Randomized response at eps = 1 is exactly eps-DP per bit: each guess right with probability e/(1+e).
        double eps = 1.0;
        double q = Math.exp(eps) / (1 + Math.exp(eps));
        int r = 200;
        int trials = 2000;
        SplittableRandom random = new SplittableRandom(36);
        int above = 0;
        double mean = 0;
        for (int t = 0; t < trials; t++) {
            int v = 0;
            for (int i = 0; i < r; i++) {
                v += random.nextDouble() < q ? 1 : 0;
            }
            double lower = OneRunAudit.epsilonLowerBound(r, r, v, 0.0);
            above += lower > eps ? 1 : 0;
            mean += lower / trials;
        }
        // At most 5% in expectation; 2000 trials put 6.5% over three standard deviations away.
        assertTrue(above <= 0.065 * trials, above + " of " + trials + " exceeded");
        // And the audit is not vacuous: the typical bound is well above 0.
        assertTrue(mean > 0.4, "mean lower bound " + mean);
    }

    @Test
    void badInputIsRefusedWithTheRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OneRunAudit.epsilonLowerBound(10, 11, 3, 0.0));
        assertTrue(e.getMessage().contains("[0, m] = [0, 10]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> OneRunAudit.epsilonLowerBound(10, 5, 6, 0.0));
        assertTrue(e.getMessage().contains("[0, r] = [0, 5]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> OneRunAudit.epsilonLowerBound(10, 5, 3, 0.0, 95));
        assertTrue(e.getMessage().contains("0.95"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OneRunAudit.epsilonLowerBound(10, 5, 3, -1e-5));
        assertThrows(IllegalArgumentException.class, () -> OneRunAudit.pValue(10, 5, 3, Double.NaN, 0));
    }
}
