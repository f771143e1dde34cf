package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AdvancedCompositionTest {

    @Test
    void threeWayMinimumNeverExceedsTheSum() {
        Random random = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            double[] eps = new double[1 + random.nextInt(500)];
            for (int t = 0; t < eps.length; t++) {
                eps[t] = random.nextDouble() * (random.nextBoolean() ? 0.05 : 2.0);
            }
            double deltaBar = Math.pow(10, -1 - 9 * random.nextDouble());
            double sum = Arrays.stream(eps).sum();
            double composed = AdvancedComposition.epsilon(eps, deltaBar);
            assertTrue(composed <= sum + 1e-12 && composed > 0, "trial " + trial);
        }
    }

    @Test
    void singleReleaseGivesBackItsEpsilon() {
        for (double e : new double[] {0.01, 0.5, 1, 5}) {
            assertEquals(e, AdvancedComposition.epsilon(new double[] {e}, 1e-5), 0.0);
            assertEquals(e, AdvancedComposition.epsilon(e, 1, 0.0), 0.0);
        }
    }

    @Test
    void manySmallReleasesGoBelowTheSumByTheKovFormula() {
        // 40-digit reference of the KOV15 minimum
        assertEquals(5.2985217455630807859, AdvancedComposition.epsilon(0.01, 10_000, 1e-5), 1e-12);
        assertEquals(5.7561055193357317006, AdvancedComposition.epsilon(0.1, 100, 1e-6), 1e-12);
        double[] equal = new double[100];
        Arrays.fill(equal, 0.1);
        assertEquals(AdvancedComposition.epsilon(0.1, 100, 1e-6), AdvancedComposition.epsilon(equal, 1e-6), 1e-12);
        // deltaBar = 0 leaves only the plain sum
        assertEquals(100 * 0.1, AdvancedComposition.epsilon(equal, 0.0), 1e-12);
        assertEquals(0.0, AdvancedComposition.epsilon(new double[0], 1e-5), 0.0);
        assertEquals(Double.POSITIVE_INFINITY, AdvancedComposition.epsilon(new double[] {1, Double.POSITIVE_INFINITY}, 0.1));
    }

    @Test
    void totalDeltaFollowsRemarkFive() {
        double[] deltas = {1e-6, 2e-6, 0.0, 5e-7};
        double expected = 1 - (1 - 1e-3) * (1 - 1e-6) * (1 - 2e-6) * (1 - 5e-7);
        assertEquals(expected, AdvancedComposition.totalDelta(1e-3, deltas), 1e-15);
        // tiny deltas keep their precision: sum to first order
        assertEquals(1e-15 + 3e-15, AdvancedComposition.totalDelta(1e-15, new double[] {1e-15, 2e-15}), 1e-28);
        assertEquals(1.0, AdvancedComposition.totalDelta(0.5, new double[] {1.0}), 0.0);
    }

    @Test
    void invalidArgumentsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AdvancedComposition.epsilon(new double[] {0.1, -0.2}, 1e-5));
        assertTrue(e.getMessage().contains("release 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AdvancedComposition.epsilon(new double[] {0.1}, 1.5));
        assertThrows(IllegalArgumentException.class, () -> AdvancedComposition.epsilon(0.1, -1, 1e-5));
        IllegalArgumentException d = assertThrows(IllegalArgumentException.class,
                () -> AdvancedComposition.totalDelta(0.1, new double[] {0.1, 2.0}));
        assertTrue(d.getMessage().contains("release 1"), d.getMessage());
    }
}
