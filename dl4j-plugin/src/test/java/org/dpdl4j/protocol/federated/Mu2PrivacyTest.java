package org.dpdl4j.protocol.federated;

import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 4.7 oracle 6 and the calibration of DP-mu^2-FL. */
class Mu2PrivacyTest {
    private static final double S = 118.1;
    private static final double DELTA = 1e-5;

    @Test
    void rdpIsLinearInTheOrderWithSlope2TSSquaredOverSigmaSquared() {
        long t = 6000;
        double sigma = 1234.5;
        Mu2Privacy untrusted = Mu2Privacy.of(ServerTrust.UNTRUSTED, S, 10, NoiseSchedule.constant(sigma), DELTA);
        Mu2Privacy trusted = Mu2Privacy.of(ServerTrust.TRUSTED, S, 10, NoiseSchedule.constant(sigma), DELTA);
        for (double alpha : new double[]{1.5, 2, 8, 32, 200}) {
            assertEquals(2 * alpha * t * S * S / (sigma * sigma), untrusted.rdp(alpha, t), 1e-12 * untrusted.rdp(alpha, t));
            assertEquals(2 * alpha * t * S * S / (100 * sigma * sigma), trusted.rdp(alpha, t), 1e-12 * trusted.rdp(alpha, t));
        }
        assertEquals(2 * untrusted.rdp(4, t), untrusted.rdp(4, 2 * t), 1e-9, "composition adds rounds");
    }

    @Test
    void perRoundScheduleSumsTheRounds() {
        double[] sigmas = {100, 200, 400};
        Mu2Privacy p = Mu2Privacy.of(ServerTrust.UNTRUSTED, S, 3, new NoiseSchedule.PerRound(sigmas), DELTA);
        double expected = 0;
        for (double s : sigmas) {
            expected += 2 * S * S / (s * s);
        }
        assertEquals(expected, p.rho(3), 1e-12 * expected);
        assertEquals(2 * S * S / (100.0 * 100.0), p.rho(1), 1e-15);
    }

    @Test
    void calibratedNoiseMeetsTheTargetTrustedIsOneOverMOfUntrustedAndTheGenericAccountantAgrees() {
        long t = 600;
        int m = 100;
        for (double eps : new double[]{4, 8, 16}) {
            double su = Mu2Privacy.calibrate(ServerTrust.UNTRUSTED, S, m, t, eps, DELTA);
            double st = Mu2Privacy.calibrate(ServerTrust.TRUSTED, S, m, t, eps, DELTA);
            assertEquals(su / m, st, 1e-15 * su, "trusted sigma is exactly untrusted / M");
            for (ServerTrust trust : ServerTrust.values()) {
                double sigma = trust == ServerTrust.UNTRUSTED ? su : st;
                Mu2Privacy p = Mu2Privacy.of(trust, S, m, NoiseSchedule.constant(sigma), DELTA);
                double rho = p.rho(t);
                double achieved = rho + 2 * Math.sqrt(rho * Math.log(1 / DELTA));
                assertTrue(achieved <= eps * (1 + 1e-12) && achieved >= eps * (1 - 1e-9), trust + " eps " + eps + ": " + achieved);
                assertEquals(achieved, p.epsilon(t), 1e-12 * eps);
                assertTrue(p.bound(t, Conversion.IMPROVED).epsilon() < p.epsilon(t), "the improved conversion is tighter");
                // The generic path: bisection over the RDP accountant's order grid.
                double generic = Mu2Privacy.calibrateWithAccountant(trust, S, m, t, eps, DELTA);
                assertTrue(generic >= sigma * (1 - 1e-6) && generic <= sigma * 1.02, trust + " generic " + generic + " vs " + sigma);
                RdpAccountant acc = new RdpAccountant(NeighbouringRelation.REPLACE_ONE);
                double z = trust == ServerTrust.UNTRUSTED ? generic / S : generic * m / S;
                acc.compose(new GaussianEvent(z), t);
                assertTrue(acc.epsilon(DELTA) <= eps * (1 + 1e-9), "the generic sigma meets the target in the generic accountant");
            }
        }
        assertEquals(ZCdp.rho(8, DELTA), 2 * 600 * S * S / Math.pow(Mu2Privacy.calibrate(ServerTrust.UNTRUSTED, S, 1, 600, 8, DELTA), 2),
                1e-12);
    }

    @Test
    void impossibleTargetsAndBadArgumentsAreRefused() {
        for (double eps : new double[]{0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Mu2Privacy.calibrate(ServerTrust.UNTRUSTED, S, 1, 100, eps, DELTA));
            assertTrue(e.getMessage().contains("target epsilon must be a positive finite number"), e.getMessage());
        }
        IllegalArgumentException delta = assertThrows(IllegalArgumentException.class,
                () -> Mu2Privacy.calibrate(ServerTrust.UNTRUSTED, S, 1, 100, 1, 1.5));
        assertTrue(delta.getMessage().contains("delta must lie in (0, 1)"), delta.getMessage());
        IllegalArgumentException machines = assertThrows(IllegalArgumentException.class,
                () -> Mu2Privacy.calibrate(ServerTrust.TRUSTED, S, 0, 100, 1, DELTA));
        assertTrue(machines.getMessage().contains("machines M must be >= 1"), machines.getMessage());
        IllegalArgumentException noNoise = assertThrows(IllegalArgumentException.class,
                () -> Mu2Privacy.of(ServerTrust.TRUSTED, S, 2, NoiseSchedule.none(), DELTA));
        assertTrue(noNoise.getMessage().contains("no privacy guarantee"), noNoise.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new NoiseSchedule.PerRound(new double[]{1, 0}));
    }
}
