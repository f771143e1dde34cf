package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The Laplace mechanism's RDP against 80-digit values of Mironov's closed form, at large noise too, where the closed
 * form in doubles rounds to 0 (and the accountants would then read the mechanism as (0, 0)-DP).
 */
class LaplaceRdpTest {
    /** {lambda, alpha, RDP} from the closed form in 80-digit decimal arithmetic. */
    private static final double[][] GOLDEN = {
        {1e3, 1.5, 7.49749968812486487e-07}, {1e3, 2, 9.99666416916724780e-07}, {1e3, 32, 1.59920254804164341e-05},
        {1e5, 1.5, 7.49997499996875040e-11}, {1e5, 2, 9.99996666641666864e-11}, {1e5, 32, 1.59999464022687906e-09},
        {1e8, 1.5, 7.49999997499999935e-17}, {1e8, 2, 9.99999996666666622e-17}, {1e8, 32, 1.59999999466664017e-15},
        {1e12, 1.5, 7.49999999999750012e-25}, {1e12, 2, 9.99999999999666745e-25}, {1e12, 32, 1.59999999999946679e-23},
        // huge orders, where the odd terms are differences of near-equal powers and a term-by-term stop was too early
        {1e18, 1e15, 4.99999916666688926e-22}, {1e20, 1e17, 4.99999916666688864e-24},
        // either side of the switch to the series
        {30, 2, 1.09846715024730776e-03}, {1e3, 1.01, 5.04831707892181126e-07},
    };

    @Test
    void matchesTheClosedFormInHighPrecisionAtEveryNoiseLevel() {
        for (double[] g : GOLDEN) {
            assertEquals(g[2], LaplaceRdp.rdp(g[0], g[1]), 1e-9 * g[2], "lambda " + g[0] + ", alpha " + g[1]);
        }
    }

    @Test
    void theSeriesAndTheClosedFormAgreeWhereTheyMeet() {
        for (double alpha : new double[] {1.25, 2, 10, 256}) {
            double lambda = alpha / LaplaceRdp.SERIES_BELOW;
            double below = LaplaceRdp.rdp(lambda * (1 + 1e-12), alpha);
            double above = LaplaceRdp.rdp(lambda * (1 - 1e-12), alpha);
            assertEquals(above, below, 1e-9 * above, "alpha " + alpha);
        }
    }

    @Test
    void aFiniteNoiseIsNeverPricedAsNoLossAtAll() {
        assertTrue(LaplaceRdp.rdp(1e200, 2) > 0, "underflow is priced as the smallest double, not as identical outputs");
        RdpAccountant accountant = new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        double eps = accountant.compose(new SelfComposedEvent(new LaplaceEvent(1e8), 1_000_000_000L))
                .epsilonBound(1e-5, Conversion.STANDARD).epsilon();
        assertTrue(eps > 0, "1e9 releases of Laplace noise 1e8 are not (0, delta)-DP: " + eps);
    }
}
