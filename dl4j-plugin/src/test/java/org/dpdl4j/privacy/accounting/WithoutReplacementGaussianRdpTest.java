package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WithoutReplacementGaussianRdpTest {

    @Test
    void theorem9MatchesFortyDigitValues() {
        // (gamma, z, alpha, bound), reference in 40-digit arithmetic of the spec 2.4 formula
        double[][] golden = {
                {0.01, 2, 5, 0.0014664462907361019873},
                {0.1, 4, 20, 0.25117751302923920956},
                {0.05, 1, 3, 1.874842266355864541},
        };
        for (double[] g : golden) {
            assertEquals(g[3], WithoutReplacementGaussianRdp.theorem9Bound(g[0], g[1], (int) g[2]), 1e-13 * g[3]);
            assertEquals(g[3], WithoutReplacementGaussianRdp.rdp(g[0], g[1], g[2]), 1e-13 * g[3]);
        }
    }

    /**
     * At ratio 1 the sample is the whole dataset, so the curve is the base mechanism's exactly. The raw
     * Theorem 9 expression is not tight there: it lies above the base curve at every integer order.
     */
    @Test
    void fullRatioIsExactlyTheBaseMechanismAndTheRawBoundLiesAbove() {
        double z = 1.5;
        for (int alpha = 2; alpha <= 64; alpha++) {
            double base = 2.0 * alpha / (z * z);
            assertEquals(base, WithoutReplacementGaussianRdp.rdp(1.0, z, alpha), 0.0);
            assertTrue(WithoutReplacementGaussianRdp.theorem9Bound(1.0, z, alpha) > base, "alpha=" + alpha);
        }
        RdpAccountant acc = new RdpAccountant(NeighbouringRelation.REPLACE_ONE);
        double[] sampled = acc.curve(new SampledWithoutReplacementEvent(1000, 1000, new GaussianEvent(z)));
        double[] base = acc.curve(new GaussianEvent(z));
        for (int i = 0; i < base.length; i++) {
            assertEquals(base[i], sampled[i], 0.0);
        }
    }

    @Test
    void monotoneInTheSamplingRatioAndNeverAboveTheBase() {
        double z = 0.8;
        double[] ratios = {1e-4, 1e-3, 0.01, 0.05, 0.2, 0.5, 0.9, 1.0};
        for (double alpha : RdpAccountant.defaultOrders()) {
            double previous = 0.0;
            for (double gamma : ratios) {
                double v = WithoutReplacementGaussianRdp.rdp(gamma, z, alpha);
                assertTrue(v >= previous && v <= 2 * alpha / (z * z), "alpha=" + alpha + " gamma=" + gamma);
                previous = v;
            }
        }
        assertEquals(0.0, WithoutReplacementGaussianRdp.rdp(0.0, z, 3), 0.0);
    }

    @Test
    void realOrdersFollowTheChordOfTheIntegerBounds() {
        double gamma = 0.02;
        double z = 1.2;
        double at3 = WithoutReplacementGaussianRdp.rdp(gamma, z, 3);
        double at4 = WithoutReplacementGaussianRdp.rdp(gamma, z, 4);
        double at35 = WithoutReplacementGaussianRdp.rdp(gamma, z, 3.5);
        assertEquals((2 * at3 + 0.5 * (3 * at4 - 2 * at3)) / 2.5, at35, 1e-15);
        double at2 = WithoutReplacementGaussianRdp.rdp(gamma, z, 2);
        assertEquals(at2, WithoutReplacementGaussianRdp.rdp(gamma, z, 1.5), 1e-15); // chord from (1, 0)
        assertTrue(at35 >= at3 && at35 <= at4);
    }

    /** Decor example-level variant (b): fixed batches of b of a user's m examples, replace-one. */
    @Test
    void decorExampleLevelFixedBatchesUseTheScaledBase() {
        double kappa = 2.3281e-4;
        double c = 1.0;
        int b = 32;
        int m = 3750;
        RdpAccountant acc = new RdpAccountant(NeighbouringRelation.REPLACE_ONE, new double[] {2, 8, 32});
        double[] curve = acc.curve(new SampledWithoutReplacementEvent(m, b,
                new CorrelatedGaussianEvent(kappa, c / b)));
        double z = b / (c * Math.sqrt(kappa));
        assertEquals(WithoutReplacementGaussianRdp.rdp((double) b / m, z, 8), curve[1], 0.0);
        // base per step 2 alpha (C/b)^2 kappa, amplified strictly below it
        assertTrue(curve[1] < 2 * 8 * (c / b) * (c / b) * kappa);
    }
}
