package org.dpdl4j.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.accounting.correlated.CorrelatedNoise;
import org.dpdl4j.privacy.accounting.correlated.KappaResult;
import org.dpdl4j.privacy.accounting.correlated.SecRdpAccountant;
import org.dpdl4j.privacy.accounting.correlated.SecRdpGuarantee;
import org.dpdl4j.privacy.accounting.correlated.UserLevelSensitivity;
import org.junit.jupiter.api.Test;

/** The exact Gaussian curve and accountant, against numerical integration, zCDP and Decor's SecRDP accountant. */
class ExactGaussianAccountantTest {

    /** {@code delta(eps) = \int (phi(x - mu) - e^eps phi(x))_+} by quadrature, for the pair N(mu, 1) against N(0, 1). */
    private static double integratedDelta(double mu, double eps) {
        double e = Math.exp(eps);
        return Quadrature.positivePart(x -> PldAccountantTest.phi(x - mu) - e * PldAccountantTest.phi(x), -30, 30 + mu, 400_000);
    }

    @Test
    void curveMatchesNumericalIntegrationAndPublishedValue() {
        // dp_accounting's pld test_gaussian_basic: mu = 1 (sigma = sqrt(3), three times) has delta(1) = 0.126936
        assertEquals(0.126936, GaussianPrivacyCurve.delta(1.0, 1.0), 1e-6);
        for (double mu : new double[] {0.1, 0.5, 1.0, 2.5, 6.0}) {
            for (double eps : new double[] {0.0, 0.2, 1.0, 3.0, 10.0}) {
                double integral = integratedDelta(mu, eps);
                if (integral < 1e-30) {
                    continue; // beyond any delta in use, and beyond the quadrature's accuracy
                }
                assertEquals(integral, GaussianPrivacyCurve.delta(mu, eps), 1e-9 * integral, "mu=" + mu + " eps=" + eps);
            }
        }
    }

    @Test
    void inversesAreOnTheSafeSideAndBelowZcdp() {
        for (double mu : new double[] {0.05, 0.3, 1.0, 4.0, 20.0}) {
            for (double delta : new double[] {1e-3, 1e-5, 1e-10}) {
                double eps = GaussianPrivacyCurve.epsilon(mu, delta);
                assertTrue(GaussianPrivacyCurve.delta(mu, eps) <= delta, "mu=" + mu + " delta=" + delta);
                if (eps > 0) {
                    assertTrue(GaussianPrivacyCurve.delta(mu, eps * (1 - 1e-9)) > delta, "the smallest such epsilon");
                }
                assertTrue(eps <= ZCdp.epsilon(mu * mu / 2, delta), "exact never above zCDP's conversion");
            }
        }
        for (double eps : new double[] {0.1, 1.0, 3.0, 10.0}) {
            double delta = 1e-5;
            double mu = GaussianPrivacyCurve.mu(eps, delta);
            assertTrue(GaussianPrivacyCurve.delta(mu, eps) <= delta);
            assertTrue(GaussianPrivacyCurve.delta(mu * (1 + 1e-9), eps) > delta, "the largest such mu");
            assertTrue(mu * mu / 2 >= ZCdp.rho(eps, delta), "a Gaussian ledger may spend at least the zCDP budget");
        }
    }

    @Test
    void composesGaussiansIntoOneAndRefusesTheRest() {
        for (NeighbouringRelation relation : NeighbouringRelation.values()) {
            double s = relation == NeighbouringRelation.REPLACE_ONE ? 2 : 1;
            DpEvent ledger = ComposedEvent.of(new SelfComposedEvent(new GaussianEvent(2.0), 30), new GaussianEvent(0.7),
                    new NoOpEvent(), new CorrelatedGaussianEvent(0.04, 1.5));
            double muSquared = 30 * s * s / 4.0 + s * s / 0.49 + s * s * 0.04 * 1.5 * 1.5;
            ExactGaussianAccountant a = new ExactGaussianAccountant(relation).compose(ledger);
            assertEquals(muSquared, a.muSquared(), 1e-12 * muSquared);
            for (double delta : new double[] {1e-3, 1e-6}) {
                double exact = a.epsilon(delta);
                assertEquals(GaussianPrivacyCurve.epsilon(Math.sqrt(muSquared), delta), exact, 1e-12 * exact);
                assertTrue(exact <= new ZCdpAccountant(relation).compose(ledger).epsilon(delta));
                assertTrue(exact <= new RdpAccountant(relation).compose(ledger).epsilon(delta, Conversion.IMPROVED));
            }
        }
        ExactGaussianAccountant a = new ExactGaussianAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE);
        for (DpEvent refused : List.of(new LaplaceEvent(1), new ZCdpEvent(0.1), new PoissonSampledEvent(0.1, new GaussianEvent(1)),
                new SampledWithoutReplacementEvent(100, 10, new GaussianEvent(1)))) {
            assertFalse(a.supports(refused), refused.toString());
            assertThrows(UnsupportedEventException.class, () -> a.compose(refused));
        }
        assertTrue(a.ledger().isEmpty());
        assertEquals(Double.POSITIVE_INFINITY, a.copy().compose(new NonPrivateEvent()).epsilon(1e-5));
    }

    /**
     * Decor (spec 3.3): against every adversary the released noise is Gaussian with covariance Sigma_H, and one user's
     * change moves the mean by e_i (x) v with |v| <= Delta = 2C, so the loss is exactly Gaussian with
     * {@code mu^2 = Delta^2 kappa} per step, kappa the SecRDP accountant's; T steps give {@code mu^2 = 4 T C^2 kappa},
     * whose RDP {@code alpha mu^2 / 2} is SecRDP's {@code alpha rho}. The exact epsilon is never above SecRDP's.
     */
    @Test
    void decorsCorrelatedNoiseIsExactlyGaussianAndNeverAboveSecRdp() {
        double c = 1.0;
        long steps = 3500;
        double delta = 1e-5;
        // noise pairs of the Decor reference repository (spec 3.5.3), n = 16
        Object[][] cases = {
                {Topologies.ring(16), 17.827099282407094, 188.0},
                {Topologies.ring(16), 9.249856092923046, 26.0},
                {Topologies.torus(4, 4), 22.96953176771683, 47.0},
                {Topologies.complete(16), 7.219399877403354, 8.0},
        };
        for (Object[] k : cases) {
            Graph g = (Graph) k[0];
            SecRdpAccountant secRdp = new SecRdpAccountant(g);
            for (Adversary adversary : List.of(Adversary.eavesdropper(), Adversary.curious(), Adversary.colluding(2))) {
                KappaResult kappa = secRdp.kappa(new CorrelatedNoise((double) k[1], (double) k[2]), adversary);
                SecRdpGuarantee guarantee = SecRdpGuarantee.of(kappa, UserLevelSensitivity.decor(c), steps, delta);
                DpEvent round = new CorrelatedGaussianEvent(kappa.kappa(), c);
                ExactGaussianAccountant exact = new ExactGaussianAccountant(NeighbouringRelation.REPLACE_ONE).compose(round, steps);
                String what = g + " " + adversary.name();
                assertEquals(4 * steps * c * c * kappa.kappa(), exact.muSquared(), 1e-12 * exact.muSquared(), what);
                assertEquals(guarantee.rho(), exact.muSquared() / 2, 1e-12 * guarantee.rho(), what + ": SecRDP's rho is mu^2/2");
                double eps = exact.epsilon(delta);
                assertEquals(GaussianPrivacyCurve.epsilon(2 * c * Math.sqrt(steps * kappa.kappa()), delta), eps, 1e-12 * eps, what);
                assertTrue(eps <= guarantee.epsilon(), what + ": exact " + eps + " above SecRDP " + guarantee.epsilon());
            }
        }
        // the first pair's published SecRDP epsilon is 10.2928 (spec 3.5.3); the exact one is well below it
        KappaResult ring = new SecRdpAccountant(Topologies.ring(16)).kappa(new CorrelatedNoise(17.827099282407094, 188),
                Adversary.eavesdropper());
        double secRdp = SecRdpGuarantee.of(ring, 2.0, steps, delta).epsilon();
        assertEquals(10.2928, secRdp, 1e-4);
        double exact = new ExactGaussianAccountant(NeighbouringRelation.REPLACE_ONE)
                .compose(new CorrelatedGaussianEvent(ring.kappa(), 1.0), steps).epsilon(delta);
        assertTrue(exact < 0.95 * secRdp, exact + " vs " + secRdp);
    }
}
