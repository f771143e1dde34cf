package org.dpdl4j.protocol.federated;

import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.accounting.ZCdpEvent;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
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

    /**
     * A per-round schedule through the ledger: round t (from 1) is the Gaussian release of sigma_t, and the planned bound
     * is the exact curve of the composition, mu^2 = sum_t 4 S^2 / (c sigma_t^2).
     */
    @Test
    void aPerRoundScheduleIsPricedRoundByRoundOnTheExactCurve() {
        double[] sigmas = {100, 200, 400};
        for (ServerTrust trust : ServerTrust.values()) {
            int m = 5;
            double c = trust == ServerTrust.TRUSTED ? m : 1;
            Mu2Privacy p = Mu2Privacy.of(trust, S, m, new NoiseSchedule.PerRound(sigmas), DELTA);
            double muSquared = 0;
            for (int t = 1; t <= 3; t++) {
                GaussianEvent e = (GaussianEvent) p.eventOfRound(t);
                assertEquals(c * sigmas[t - 1] / S, e.noiseMultiplier(), 1e-12 * e.noiseMultiplier(), trust + " round " + t);
                muSquared += 4 * S * S / (c * c * sigmas[t - 1] * sigmas[t - 1]);
                assertEquals(GaussianPrivacyCurve.epsilon(Math.sqrt(muSquared), DELTA), p.epsilon(t), 1e-9, trust + " after " + t);
            }
            assertEquals(muSquared / 2, p.rho(3), 1e-12 * p.rho(3));
        }
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
    void renyiCalibrationIsThePapersZcdpClosedFormTrustedIsOneOverMOfUntrustedAndTheGenericAccountantAgrees() {
        long t = 600;
        int m = 100;
        AccountantFactory rdp = AccountantFactory.renyi();
        for (double eps : new double[]{4, 8, 16}) {
            double su = Mu2Privacy.calibrate(ServerTrust.UNTRUSTED, S, m, t, eps, DELTA, rdp);
            double st = Mu2Privacy.calibrate(ServerTrust.TRUSTED, S, m, t, eps, DELTA, rdp);
            assertEquals(su / m, st, 1e-11 * st, "trusted sigma is untrusted / M (to the safe side's steps of rounding)");
            for (ServerTrust trust : ServerTrust.values()) {
                double sigma = trust == ServerTrust.UNTRUSTED ? su : st;
                Mu2Privacy p = Mu2Privacy.of(trust, S, m, NoiseSchedule.constant(sigma), DELTA, rdp);
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
        assertEquals(ZCdp.rho(8, DELTA), 2 * 600 * S * S / Math.pow(Mu2Privacy.calibrate(ServerTrust.UNTRUSTED, S, 1, 600, 8, DELTA,
                rdp), 2), 1e-12);
    }

    /**
     * By default every round is priced as the Gaussian release it is: T rounds are one Gaussian mechanism of
     * mu = 2 S sqrt(T) / sigma (untrusted; M sigma for trusted), and the calibrated noise meets the target on that exact
     * curve, from below, with less noise than zCDP's conversion needs for the same target.
     */
    @Test
    void defaultCalibrationMeetsTheTargetOnTheExactGaussianCurveWithLessNoiseThanZcdp() {
        long t = 600;
        int m = 10;
        for (double eps : new double[]{1, 4, 8, 16}) {
            double rdpSigma = Mu2Privacy.calibrate(ServerTrust.UNTRUSTED, S, m, t, eps, DELTA, AccountantFactory.renyi());
            for (ServerTrust trust : ServerTrust.values()) {
                double sigma = Mu2Privacy.calibrate(trust, S, m, t, eps, DELTA);
                double perRound = trust == ServerTrust.UNTRUSTED ? sigma : m * sigma;
                double mu = 2 * S * Math.sqrt(t) / perRound;
                double exact = GaussianPrivacyCurve.epsilon(mu, DELTA);
                assertTrue(exact <= eps * (1 + 1e-12) && exact >= eps * (1 - 1e-6), trust + " eps " + eps + ": " + exact);
                Mu2Privacy p = Mu2Privacy.of(trust, S, m, NoiseSchedule.constant(sigma), DELTA);
                assertEquals(exact, p.epsilon(t), 1e-9 * eps, "the ledger prices the rounds by the exact curve");
                assertTrue(p.epsilon(t) <= eps, "never above the target: " + p.epsilon(t));
                assertTrue(perRound < 0.95 * rdpSigma, trust + " eps " + eps + ": " + perRound + " vs zCDP's " + rdpSigma);
                // and the same noise priced by Renyi DP alone is above the target: the saving is the accountant's, not a slip
                assertTrue(Mu2Privacy.of(trust, S, m, NoiseSchedule.constant(sigma), DELTA, AccountantFactory.renyi()).epsilon(t) > eps);
            }
        }
    }

    /**
     * The committed reproduction (results/mu2, calibrated when the rounds were recorded as zCDP statements) is what
     * Renyi DP's calibration gives today, to the bit: its noise, and the epsilon its runs' ledgers report.
     */
    @Test
    void renyiCalibrationReproducesTheCommittedReproductionsNoisesToTheBit() {
        double s = 118.1232255123179;   // G + 2 L D with spec 4.6's constants, D = 0.1
        Object[][] rows = {
                {ServerTrust.UNTRUSTED, 1, 60000, 4.0, 3.999999999995704, 75001.77197887171},
                {ServerTrust.UNTRUSTED, 1, 60000, 8.0, 7.999999999999998, 39949.37451671009},
                {ServerTrust.UNTRUSTED, 1, 60000, 16.0, 15.99999999998057, 22092.078026709583},
                {ServerTrust.TRUSTED, 1, 60000, 16.0, 15.99999999998057, 22092.078026709583},
                {ServerTrust.UNTRUSTED, 10, 6000, 4.0, 3.999999999995704, 23717.64280018287},
                {ServerTrust.UNTRUSTED, 10, 6000, 8.0, 7.999999999999999, 12633.101457189226},
                {ServerTrust.UNTRUSTED, 10, 6000, 16.0, 15.999999999980567, 6986.1284810560455},
                {ServerTrust.TRUSTED, 10, 6000, 4.0, 3.999999999995704, 2371.764280018287},
                {ServerTrust.TRUSTED, 10, 6000, 8.0, 7.999999999999999, 1263.3101457189227},
                {ServerTrust.TRUSTED, 10, 6000, 16.0, 15.999999999980567, 698.6128481056046},
                {ServerTrust.UNTRUSTED, 100, 600, 4.0, 3.9999999999957048, 7500.177197887168},
                {ServerTrust.UNTRUSTED, 100, 600, 8.0, 7.999999999999999, 3994.937451671009},
                {ServerTrust.UNTRUSTED, 100, 600, 16.0, 16.0, 2209.207802668749},
                {ServerTrust.TRUSTED, 100, 600, 4.0, 3.9999999999957043, 75.00177197887169},
                {ServerTrust.TRUSTED, 100, 600, 8.0, 7.999999999999998, 39.949374516710094},
                {ServerTrust.TRUSTED, 100, 600, 16.0, 15.999999999999998, 22.092078026687492},
        };
        AccountantFactory rdp = AccountantFactory.renyi();
        for (Object[] r : rows) {
            ServerTrust trust = (ServerTrust) r[0];
            int m = (Integer) r[1];
            long t = (Integer) r[2];
            double sigma = Mu2Privacy.calibrate(trust, s, m, t, (Double) r[3], DELTA, rdp);
            assertEquals((Double) r[5], sigma, 0.0, trust + " M " + m + " eps " + r[3]);
            assertEquals((Double) r[4], Mu2Privacy.of(trust, s, m, NoiseSchedule.constant(sigma), DELTA, rdp).epsilon(t),
                    4 * Math.ulp((Double) r[4]),
                    trust + " M " + m + " eps " + r[3]);
        }
    }

    /**
     * A checkpoint written before the rounds were recorded as Gaussian releases holds zCDP statements of the same rho: a run
     * resumed from it states the rho of both kinds of rounds, and its ledger is priced as a valid bound (zCDP's conversion,
     * which prices both; the exact curve prices Gaussian releases only).
     */
    @Test
    void aLedgerWithRoundsRecordedAsZcdpStatementsStillStatesItsRhoAndIsPricedByZcdp() {
        double sigma = 900;
        Mu2Privacy p = Mu2Privacy.of(ServerTrust.UNTRUSTED, S, 4, NoiseSchedule.constant(sigma), DELTA);
        double rhoRound = 2 * S * S / (sigma * sigma);
        RunLedger ledger = new RunLedger(LedgerAccounting.standard(p.relation()), PrivacyBudget.unlimited(DELTA), true);
        ledger.spend(1, new ZCdpEvent(rhoRound), "a round recorded before the change");
        ledger.spend(2, p.eventOfRound(2), p.describe());
        ledger.spend(3, p.eventOfRound(3), p.describe());
        String statement = p.statement(ledger, 3, null);
        assertTrue(statement.contains(String.format(java.util.Locale.ROOT, "= %.6g, that of one Gaussian", 3 * rhoRound)), statement);
        assertEquals(ZCdp.epsilon(3 * rhoRound, DELTA), ledger.spent(Conversion.STANDARD).epsilon(), 1e-9);
        RunLedger gaussianOnly = new RunLedger(LedgerAccounting.standard(p.relation()), PrivacyBudget.unlimited(DELTA), true);
        for (long t = 1; t <= 3; t++) {
            gaussianOnly.spend(t, p.eventOfRound(t), p.describe());
        }
        assertEquals(GaussianPrivacyCurve.epsilon(Math.sqrt(6 * rhoRound), DELTA), gaussianOnly.spent(Conversion.STANDARD).epsilon(), 1e-9);
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
