package org.dpdl4j.audit;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MembershipInferenceTest {

    @Test
    void aucCountsPairsAndTiesHalf() {
        boolean[] coins = {true, false, true, false};
        assertEquals(1.0, MembershipInference.auc(new double[]{3, 1, 4, 2}, coins));
        assertEquals(0.0, MembershipInference.auc(new double[]{1, 3, 2, 4}, coins));
        // Pairs (in, out): (3,1) win, (3,4) loss, (2,1) win, (2,4) loss.
        assertEquals(0.5, MembershipInference.auc(new double[]{3, 1, 2, 4}, coins));
        assertEquals(0.5, MembershipInference.auc(new double[]{7, 7, 7, 7}, coins));
    }

    @Test
    void aucOfAShiftedGaussianMatchesItsClosedForm() {
        // Scores N(mu, 1) for included, N(0, 1) for excluded: AUC = Phi(mu / sqrt 2); Phi(1 / sqrt 2) = 0.76025.
        SplittableRandom random = new SplittableRandom(5);
        int m = 40_000;
        double[] scores = new double[m];
        boolean[] coins = new boolean[m];
        for (int i = 0; i < m; i++) {
            coins[i] = random.nextBoolean();
            scores[i] = gaussian(random) + (coins[i] ? 1.0 : 0.0);
        }
        assertEquals(0.76025, MembershipInference.auc(scores, coins), 0.01);
        // TPR at FPR 1%: the threshold is the 99% quantile 2.3263 of N(0,1), TPR = 1 - Phi(1.3263) = 0.0924.
        assertEquals(0.0924, MembershipInference.truePositiveRateAt(scores, coins, 0.01), 0.015);
    }

    @Test
    void truePositiveRateAtAFalsePositiveRate() {
        // Excluded score 5 sits above all but one included: with no false positive allowed only 6 beats it.
        double[] scores = {6, 5, 4, 3, 2, 1};
        boolean[] coins = {true, false, true, true, false, false};
        assertEquals(1.0 / 3, MembershipInference.truePositiveRateAt(scores, coins, 0.0), 1e-12);
        assertEquals(1.0, MembershipInference.truePositiveRateAt(scores, coins, 1.0 / 3), 1e-12);
        assertEquals(1.0, MembershipInference.truePositiveRateAt(scores, coins, 1.0), 1e-12);
    }

    @Test
    void refusesCoinsWithoutBothSides() {
        assertThrows(IllegalArgumentException.class,
                () -> MembershipInference.auc(new double[]{1, 2}, new boolean[]{true, true}));
        assertThrows(IllegalArgumentException.class,
                () -> MembershipInference.auc(new double[]{1, 2}, new boolean[]{true}));
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
