package org.dpdl4j.protocol.recal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.junit.jupiter.api.Test;

/** Spec 5.7 oracle 5: DP-RECAL's accounting. */
class DecayingNoisePrivacyTest {

    @Test
    void withoutDecayRhoIsLciTimesTheGaussianRho() {
        for (long lci : new long[]{1, 7, 600}) {
            double expected = lci * 0.3 * 0.3 / (2 * 1.7 * 1.7);
            assertEquals(expected, DecayingNoisePrivacy.rho(0.3, 1.7, 1.0, lci), 1e-14 * expected);
        }
    }

    @Test
    void theGeometricSumEqualsTheExplicitSum() {
        for (double zeta : new double[]{0.5, 0.9, 0.99, 0.999}) {
            for (long k : new long[]{1, 2, 10, 600}) {
                double explicit = 0;
                for (long m = 1; m <= k; m++) {
                    explicit += DecayingNoisePrivacy.publicationRho(0.8, 2.0, zeta, m);
                }
                double closed = DecayingNoisePrivacy.rho(0.8, 2.0, zeta, k);
                assertEquals(explicit, closed, 1e-11 * explicit, "zeta " + zeta + ", K " + k);
            }
        }
    }

    /** Each publication's Gaussian release has the rho of Theorem 3's m-th term under replace-one (2 / z^2). */
    @Test
    void everyPublicationIsTheGaussianReleaseOfItsRho() {
        DecayingNoisePrivacy p = new DecayingNoisePrivacy(new double[] {0.8, 2.5}, new double[] {2.0, 7.0}, 0.97);
        for (int agent = 0; agent < 2; agent++) {
            for (long m : new long[] {1, 2, 17, 400}) {
                double z = p.publication(agent, m).noiseMultiplier();
                double rho = DecayingNoisePrivacy.publicationRho(p.sensitivity(agent), p.sigma(agent), 0.97, m);
                assertEquals(rho, 2 / (z * z), 1e-12 * rho, "agent " + agent + ", publication " + m);
                assertEquals(p.std(agent, m), z * p.sensitivity(agent) / 2, 1e-12 * p.std(agent, m), "the std over half the sensitivity");
            }
        }
    }

    /**
     * By default the publications are priced as the Gaussian releases they are (one of mu^2 = 2 rho composed), and the
     * calibration meets the target on that exact curve; with Renyi DP alone it is the paper's zCDP closed form.
     */
    @Test
    void aCalibratedSigmaStaysWithinTheTargetOfItsAccountant() {
        for (double eps : new double[]{0.1, 1, 8}) {
            for (double zeta : new double[]{0.95, 1.0}) {
                double sigma = DecayingNoisePrivacy.calibrate(0.5, zeta, 600, eps, 1e-5);
                double achieved = GaussianPrivacyCurve.epsilon(Math.sqrt(2 * DecayingNoisePrivacy.rho(0.5, sigma, zeta, 600)), 1e-5);
                assertTrue(achieved <= eps, achieved + " > " + eps);
                assertEquals(eps, achieved, 1e-6 * eps, "calibration is tight");
                double paper = DecayingNoisePrivacy.calibrate(0.5, zeta, 600, eps, 1e-5, AccountantFactory.renyi());
                double zcdp = ZCdp.epsilon(DecayingNoisePrivacy.rho(0.5, paper, zeta, 600), 1e-5);
                assertTrue(zcdp <= eps, zcdp + " > " + eps);
                assertEquals(eps, zcdp, 1e-9 * eps, "the paper's calibration is tight in zCDP");
                assertEquals(0.5 * Math.sqrt(DecayingNoisePrivacy.decaySum(zeta, 600) / (2 * ZCdp.rho(eps, 1e-5))), paper,
                        1e-9 * paper, "Theorem 3 inverted");
                assertTrue(sigma < 0.95 * paper, "the exact curve needs less noise: " + sigma + " vs " + paper);
            }
        }
    }

    @Test
    void rhoGrowsWithTheLciAndWithOneOverZeta() {
        double previous = 0;
        for (long k = 1; k <= 100; k++) {
            double rho = DecayingNoisePrivacy.rho(1, 3, 0.97, k);
            assertTrue(rho > previous);
            previous = rho;
        }
        double last = 0;
        for (double zeta : new double[]{1.0, 0.99, 0.95, 0.9, 0.5}) {
            double rho = DecayingNoisePrivacy.rho(1, 3, zeta, 50);
            assertTrue(rho > last, "rho at zeta " + zeta);
            last = rho;
        }
    }

    @Test
    void impossibleSettingsAreRefusedWithTheReason() {
        assertThrows(IllegalArgumentException.class, () -> DecayingNoisePrivacy.rho(1, 1, 0, 3));
        assertThrows(IllegalArgumentException.class, () -> DecayingNoisePrivacy.rho(1, 1, 1.5, 3));
        IllegalArgumentException overflow = assertThrows(IllegalArgumentException.class,
                () -> DecayingNoisePrivacy.calibrate(1, 0.5, 5000, 1, 1e-5));
        assertTrue(overflow.getMessage().contains("raise zeta"), overflow.getMessage());
    }
}
