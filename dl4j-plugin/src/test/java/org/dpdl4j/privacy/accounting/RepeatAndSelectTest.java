package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Papernot and Steinke's tuning bounds against values computed by hand from Theorems 2 and 6 and Corollary 4
 * (Definition 1 for the means).
 */
class RepeatAndSelectTest {

    @Test
    void theMeansOfTheTruncatedNegativeBinomialAndTheirInverse() {
        assertEquals(3.908650, RepeatAndSelect.truncatedNegativeBinomialMean(0, 0.1), 1e-6, "logarithmic: (1/gamma - 1)/ln(1/gamma)");
        assertEquals(6.581139, RepeatAndSelect.truncatedNegativeBinomialMean(0.5, 0.1), 1e-6);
        assertEquals(10, RepeatAndSelect.truncatedNegativeBinomialMean(1, 0.1), 1e-12, "geometric: 1/gamma");
        assertEquals(2.081139, RepeatAndSelect.truncatedNegativeBinomialMean(-0.5, 0.1), 1e-6);
        for (double eta : new double[]{-0.5, 0, 0.5, 1, 2}) {
            double mean = RepeatAndSelect.truncatedNegativeBinomialMean(eta, 0.1);
            double gamma = RepeatAndSelect.gammaForMean(eta, mean);
            assertEquals(0.1, gamma, 1e-9, "eta " + eta);
            assertTrue(RepeatAndSelect.truncatedNegativeBinomialMean(eta, gamma) >= mean - 1e-9, "the conservative side");
        }
    }

    @Test
    void theorem2WithTheCandidateCurveGivenAtTwoOrders() {
        // eps(8) = 1, eps-hat(4) = 0.5, gamma = 0.1: the minimum over lambda-hat is at 4 (0.9506 against 1.1628 at 8)
        double[] orders = {4, 8};
        double[] curve = {0.5, 1.0};
        double[] expected = {2.145388, 2.695142, 3.230233, 1.580025};
        double[] etas = {0, 0.5, 1, -0.5};
        for (int k = 0; k < etas.length; k++) {
            double[] out = RepeatAndSelect.truncatedNegativeBinomial(orders, curve, etas[k], 0.1);
            double byHand = 1 + Math.log(RepeatAndSelect.truncatedNegativeBinomialMean(etas[k], 0.1)) / 7
                    + (1 + etas[k]) * (0.75 * 0.5 + Math.log(10) / 4);
            assertEquals(byHand, out[1], 1e-12);
            assertEquals(expected[k], out[1], 1e-6, "eta " + etas[k]);
        }
    }

    @Test
    void corollary4ForAZcdpCandidateOnAFineGrid() {
        // rho = 0.1, geometric with gamma = 0.1 (E[K] = 10): the optimal lambda-hat is sqrt(ln(10)/rho) = 4.7985
        double[] orders = IntStream.rangeClosed(101, 20_000).mapToDouble(i -> i / 100.0).toArray();
        double[] curve = java.util.Arrays.stream(orders).map(a -> 0.1 * a).toArray();
        double[] out = RepeatAndSelect.truncatedNegativeBinomial(orders, curve, 1, 0.1);
        double flat = 6 * Math.sqrt(0.1 * Math.log(10)) - 0.1;       // 2 sqrt(rho ln E[K]) + 2(1+eta) sqrt(rho ln(1/gamma)) - eta rho
        assertEquals(2.779116, flat, 1e-6);
        assertEquals(flat, out[index(orders, 2.0)], 2e-4, "at lambda = 2, by monotonicity");
        assertEquals(2.975253, out[index(orders, 10.0)], 2e-4, "at lambda = 10, Theorem 2 itself");
        for (int i = 1; i < out.length; i++) {
            assertTrue(out[i] >= out[i - 1], "non-decreasing in the order");
            assertTrue(out[i] >= curve[i], "tuning never costs less than one candidate");
        }
    }

    @Test
    void theorem6ForAGaussianCandidate() {
        // sigma = 2, sensitivity 1: eps(lambda) = lambda / 8; mu = 10 at lambda = 4. With the exact delta-hat of the
        // Gaussian at eps-hat = ln(4/3) (0.099676) the bound is 2.264290; the RDP curve's delta-hat is larger.
        double[] orders = IntStream.rangeClosed(101, 20_000).mapToDouble(i -> i / 100.0).toArray();
        double[] curve = java.util.Arrays.stream(orders).map(a -> a / 8).toArray();
        double[] out = RepeatAndSelect.poisson(orders, curve, 10);
        double at4 = out[index(orders, 4.0)];
        double deltaHat = RepeatAndSelect.delta(orders, curve, Math.log(4.0 / 3));
        assertTrue(deltaHat >= 0.099676, "a conversion never beats the exact delta: " + deltaHat);
        assertTrue(at4 <= 0.5 + 10 * deltaHat + Math.log(10) / 3 + 1e-12, "monotonicity only lowers the value");
        assertTrue(at4 >= 2.264290 - 1e-6, "never below the bound with the exact delta-hat: " + at4);
        assertThrows(IllegalArgumentException.class, () -> RepeatAndSelect.poisson(orders, curve, 0.5));
    }

    @Test
    void badCurvesAndParametersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RepeatAndSelect.truncatedNegativeBinomial(new double[]{2}, new double[]{1, 2}, 0, 0.1));
        assertThrows(IllegalArgumentException.class, () -> RepeatAndSelect.truncatedNegativeBinomial(new double[]{3, 2}, new double[]{1, 2}, 0, 0.1));
        assertThrows(IllegalArgumentException.class, () -> RepeatAndSelect.truncatedNegativeBinomial(new double[]{2}, new double[]{1}, -1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> RepeatAndSelect.truncatedNegativeBinomial(new double[]{2}, new double[]{1}, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> RepeatAndSelect.gammaForMean(0, 1));
    }

    @Test
    void theAccountantPricesTuningAsTheCandidatesCurveTransformed() {
        // 8 expected candidates (geometric), each 300 DP-SGD steps at q = 0.01, z = 1.1
        DpEvent candidate = new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1.1)), 300);
        RdpAccountant accountant = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        double[] orders = accountant.orders();
        double[] one = accountant.curve(candidate);
        double[] expected = RepeatAndSelect.truncatedNegativeBinomial(orders, one, 1, 1.0 / 8);
        double[] tuned = accountant.curve(new RepeatAndSelectEvent(candidate, 8, 1));
        for (int i = 0; i < orders.length; i++) {
            assertEquals(expected[i], tuned[i], 1e-12 * expected[i], "order " + orders[i]);
        }
        accountant.compose(new RepeatAndSelectEvent(candidate, 8, 1));
        double tunedEpsilon = accountant.epsilonBound(1e-5, Conversion.STANDARD).epsilon();
        double single = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE).compose(candidate)
                .epsilonBound(1e-5, Conversion.STANDARD).epsilon();
        assertTrue(tunedEpsilon > single && tunedEpsilon < 3 * single + 5, "tuning costs more than one run: " + single + " -> "
                + tunedEpsilon);

        TightestAccountant standard = new TightestAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        standard.compose(RepeatAndSelectEvent.poisson(new GaussianEvent(2), 10));
        assertTrue(standard.epsilonBound(1e-5, Conversion.STANDARD).epsilon() > 0);
        assertEquals(RdpAccountant.NAME, standard.epsilonBound(1e-5, Conversion.STANDARD).accountant(), "only RDP prices tuning");
        assertThrows(UnsupportedEventException.class, () -> new ZCdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE)
                .compose(new RepeatAndSelectEvent(new GaussianEvent(2), 10, 0)));
        assertThrows(IllegalArgumentException.class, () -> new RepeatAndSelectEvent(new GaussianEvent(1), 1, 0));
        assertThrows(IllegalArgumentException.class, () -> RepeatAndSelectEvent.poisson(new GaussianEvent(1), 0.5));
    }

    private static int index(double[] orders, double value) {
        for (int i = 0; i < orders.length; i++) {
            if (Math.abs(orders[i] - value) < 1e-9) {
                return i;
            }
        }
        throw new IllegalArgumentException("no order " + value);
    }
}
