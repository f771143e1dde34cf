package org.dpdl4j.privacy.accounting;

import static org.dpdl4j.privacy.accounting.NeighbouringRelation.ADD_OR_REMOVE_ONE;
import static org.dpdl4j.privacy.accounting.NeighbouringRelation.REPLACE_ONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ZCdpAccountantTest {

    /** Spec 3.9 oracle 9: the closed form equals the numerical minimum over a fine grid of orders. */
    @Test
    void closedFormEqualsNumericalMinimumOverAFineOrderGrid() {
        for (double rho : new double[] {1e-4, 0.01, 0.5, 3.0}) {
            for (double delta : new double[] {1e-3, 1e-5, 1e-10}) {
                double best = Double.POSITIVE_INFINITY;
                // alpha - 1 log-spaced over [1e-4, 1e6], a million points
                double ratio = Math.pow(10.0, 10.0 / 1_000_000);
                double alphaMinusOne = 1e-4;
                for (int k = 0; k <= 1_000_000; k++, alphaMinusOne *= ratio) {
                    best = Math.min(best, (1.0 + alphaMinusOne) * rho + Math.log(1.0 / delta) / alphaMinusOne);
                }
                assertEquals(best, ZCdp.epsilon(rho, delta), 1e-6, "rho=" + rho + " delta=" + delta);
                ZCdpAccountant acc = new ZCdpAccountant(ADD_OR_REMOVE_ONE).compose(new ZCdpEvent(rho));
                assertEquals(ZCdp.epsilon(rho, delta), acc.epsilon(delta), 0.0);
                assertEquals(ZCdp.optimalOrder(rho, delta), acc.epsilonBound(delta, Conversion.STANDARD).order(), 0.0);
            }
        }
    }

    @Test
    void rhoRoundTrip() {
        for (double eps : new double[] {0.1, 1, 10, 40}) {
            for (double delta : new double[] {1e-5, 1e-9}) {
                assertEquals(eps, ZCdp.epsilon(ZCdp.rho(eps, delta), delta), 1e-12 * eps);
            }
        }
        // Decor per-step budget of spec 3.5.1: eps = 10, delta = 1e-5, T = 3500
        assertEquals(4.4295863673583433e-4, ZCdp.rho(10, 1e-5) / 3500, 1e-17);
    }

    @Test
    void gaussianRhoUnderEachRelationAndComposition() {
        double z = 2.0;
        assertEquals(1 / (2 * z * z), new ZCdpAccountant(ADD_OR_REMOVE_ONE).rhoOf(new GaussianEvent(z)), 0.0);
        assertEquals(2 / (z * z), new ZCdpAccountant(REPLACE_ONE).rhoOf(new GaussianEvent(z)), 0.0);
        // Decor SecRDP: T steps of 2 C^2 kappa
        double kappa = 2.3281e-4;
        ZCdpAccountant decor = new ZCdpAccountant(REPLACE_ONE).compose(new CorrelatedGaussianEvent(kappa, 1.0), 3500);
        assertEquals(2 * 3500 * kappa, decor.rho(), 1e-15);
        // Laplace: eps-DP implies eps^2/2-zCDP
        assertEquals(0.125, new ZCdpAccountant(ADD_OR_REMOVE_ONE).rhoOf(new LaplaceEvent(2.0)), 0.0);
        ZCdpAccountant mixed = new ZCdpAccountant(ADD_OR_REMOVE_ONE)
                .compose(ComposedEvent.of(new GaussianEvent(1), new ZCdpEvent(0.25), new NoOpEvent()))
                .compose(new GaussianEvent(Double.POSITIVE_INFINITY));
        assertEquals(0.75, mixed.rho(), 0.0);
        assertEquals(3, mixed.ledger().size() + 1);
        // agrees with the RDP accountant on a linear curve, at the RDP accountant's best grid order
        RdpAccountant rdp = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(new GaussianEvent(1)).compose(new ZCdpEvent(0.25));
        assertTrue(mixed.epsilon(1e-5) <= rdp.epsilon(1e-5) && rdp.epsilon(1e-5) < mixed.epsilon(1e-5) + 5e-3);
    }

    /**
     * Decor's user-level accountant (spec 3.3, 3.5.2, 3.5.3): T steps of the correlated Gaussian,
     * replace-one, rho = 2 T C^2 kappa. Values from the reference repository's tables.
     */
    @Test
    void decorUserLevelTableValues() {
        double[][] rows = { // eps_step = 2 C^2 kappa, achieved eps (4 decimals)
                {4.656256603611915e-4, 10.2928}, {4.787248702487594e-4, 10.4597}, {4.122343262663763e-3, 40.2050},
                {9.465625192158389e-6, 1.2683}, {5.055856814808999e-4, 10.7968},
        };
        for (double[] row : rows) {
            ZCdpAccountant acc = new ZCdpAccountant(REPLACE_ONE)
                    .compose(new CorrelatedGaussianEvent(row[0] / 2.0, 1.0), 3500);
            assertEquals(row[1], acc.epsilon(1e-5), 5e-5, "eps_step " + row[0]);
        }
        // LDP baseline noise for eps = 10, delta = 1e-5, T = 3500, C = 1: sigma_ldp = 67.1945
        Calibration ldp = Calibrator.calibrate(new ZCdpAccountant(REPLACE_ONE),
                z -> new SelfComposedEvent(new GaussianEvent(z), 3500), 1e-5, 10.0);
        assertEquals(67.1945, ldp.noise(), 1e-4);
    }

    @Test
    void improvedConversionIsBelowStandardAndAtMostTheBestGridOrder() {
        ZCdpAccountant acc = new ZCdpAccountant(ADD_OR_REMOVE_ONE).compose(new ZCdpEvent(0.05));
        RdpAccountant grid = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(new ZCdpEvent(0.05));
        for (double delta : new double[] {1e-3, 1e-6, 1e-12}) {
            EpsilonBound improved = acc.epsilonBound(delta, Conversion.IMPROVED);
            assertTrue(improved.epsilon() < acc.epsilon(delta));
            assertTrue(improved.epsilon() <= grid.epsilon(delta, Conversion.IMPROVED) + 1e-12);
            assertEquals(Conversion.IMPROVED.epsilon(improved.order(), 0.05 * improved.order(), delta),
                    improved.epsilon(), 1e-12);
        }
    }

    @Test
    void deltaInvertsEpsilon() {
        ZCdpAccountant acc = new ZCdpAccountant(REPLACE_ONE).compose(new GaussianEvent(8), 100);
        for (Conversion conversion : Conversion.values()) {
            for (double delta : new double[] {1e-4, 1e-8}) {
                double eps = acc.epsilon(delta, conversion);
                assertEquals(delta, acc.delta(eps, conversion), 1e-6 * delta, conversion + " delta=" + delta);
            }
        }
        assertEquals(1.0, acc.delta(acc.rho() / 2), 0.0);
    }

    @Test
    void zeroAndInfiniteLossAndForks() {
        ZCdpAccountant acc = new ZCdpAccountant(ADD_OR_REMOVE_ONE);
        assertEquals(0.0, acc.epsilon(1e-5), 0.0);
        assertEquals(0.0, acc.delta(0.1), 0.0);
        ZCdpAccountant fork = acc.copy().compose(new NonPrivateEvent());
        assertEquals(Double.POSITIVE_INFINITY, fork.epsilon(1e-5));
        assertEquals(Double.POSITIVE_INFINITY, fork.epsilon(1e-5, Conversion.IMPROVED));
        assertEquals(1.0, fork.delta(1e6), 0.0);
        assertEquals(0, acc.ledger().size());
        assertThrows(IllegalArgumentException.class, () -> acc.epsilon(0.0));
    }
}
