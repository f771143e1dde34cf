package org.dpdl4j.privacy.accounting;

import static org.dpdl4j.privacy.accounting.NeighbouringRelation.ADD_OR_REMOVE_ONE;
import static org.dpdl4j.privacy.accounting.NeighbouringRelation.REPLACE_ONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CalibratorTest {
    private static final double Q = 256.0 / 60000.0;
    private static final long STEPS = 14062;

    @Test
    void dpSgdRoundTripMeetsTheTargetAndIsTight() {
        for (double target : new double[] {1.0, 3.0, 8.0}) {
            double z = Calibrator.dpSgdNoiseMultiplier(target, 1e-5, Q, STEPS);
            double achieved = DpSgd.accountant(Q, z, STEPS).epsilon(1e-5);
            assertTrue(achieved <= target, "target " + target + " achieved " + achieved);
            assertTrue(DpSgd.accountant(Q, 0.999 * z, STEPS).epsilon(1e-5) > target, "not the smallest noise");
        }
        // the golden example: z = 1.1 gives 3.0084 by RDP on the default grid, so target 3.0084 needs z just below 1.1
        double z = Calibrator.dpSgdNoiseMultiplier(AccountantFactory.rdp(), 3.0084, 1e-5, Q, STEPS);
        assertEquals(1.1, z, 1e-3);
        // the default (tightest) accounting needs less noise for the same target, and meets it by its own pricing
        double tight = Calibrator.dpSgdNoiseMultiplier(3.0084, 1e-5, Q, STEPS);
        assertTrue(tight < 0.95 * z, "tightest " + tight + " rdp " + z);
        assertTrue(DpSgd.accountant(Q, tight, STEPS).epsilon(1e-5) <= 3.0084);
    }

    @Test
    void closedFormMechanismsCalibrateToTheirInverse() {
        // eps(s) = 1/s (pure Laplace with scale ratio s): the exact answer is 1/target; hi is conservative
        Calibration c = Calibrator.calibrate(s -> 1.0 / s, 0.37);
        assertTrue(c.noise() >= 1.0 / 0.37 && c.noise() <= (1.0 / 0.37) * (1 + 1e-6), "noise " + c.noise());
        assertTrue(c.epsilon() <= 0.37);
        assertEquals(0.37, c.targetEpsilon(), 0.0);
        assertTrue(c.evaluations() > 10 && c.evaluations() < 200);
        // T Gaussian steps, replace-one, zCDP: rho = 2T/z^2 and rho(eps, delta) in closed form
        int t = 3500;
        double delta = 1e-5;
        Calibration zcdp = Calibrator.calibrate(new ZCdpAccountant(REPLACE_ONE), s -> new SelfComposedEvent(
                new GaussianEvent(s), t), delta, 10.0);
        double exact = Math.sqrt(2.0 * t / ZCdp.rho(10.0, delta));
        assertTrue(zcdp.noise() >= exact * (1 - 1e-12) && zcdp.noise() <= exact * (1 + 1e-6), zcdp.toString());
    }

    @Test
    void calibrationOnTopOfALedgerLeavesTheLedgerUntouched() {
        RdpAccountant spent = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(new GaussianEvent(10.0));
        double before = spent.epsilon(1e-5);
        Calibration c = Calibrator.calibrate(spent, z -> DpSgd.event(0.01, z, 1000), 1e-5, 4.0);
        assertEquals(1, spent.ledger().size());
        assertEquals(before, spent.epsilon(1e-5), 0.0);
        double achieved = spent.copy().compose(DpSgd.event(0.01, c.noise(), 1000)).epsilon(1e-5);
        assertEquals(c.epsilon(), achieved, 0.0);
        assertTrue(achieved <= 4.0);
        // the improved conversion needs less noise for the same target
        Calibration improved = Calibrator.calibrate(spent, z -> DpSgd.event(0.01, z, 1000), 1e-5,
                Conversion.IMPROVED, 4.0);
        assertTrue(improved.noise() < c.noise());
    }

    @Test
    void infeasibleTargetsFailWithTheReason() {
        IllegalArgumentException nonPrivate = assertThrows(IllegalArgumentException.class, () -> Calibrator.calibrate(
                new RdpAccountant(ADD_OR_REMOVE_ONE).compose(new NonPrivateEvent()), GaussianEvent::new, 1e-5, 1.0));
        assertTrue(nonPrivate.getMessage().contains("cannot be reached") && nonPrivate.getMessage().contains("unbounded whatever the noise"),
                nonPrivate.getMessage());
        // earlier spending already above the target
        RdpAccountant spent = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(new GaussianEvent(0.5));
        IllegalArgumentException floor = assertThrows(IllegalArgumentException.class,
                () -> Calibrator.calibrate(spent, GaussianEvent::new, 1e-5, 1.0));
        assertTrue(floor.getMessage().contains("cannot be reached") && floor.getMessage().contains("earlier spending in the ledger"),
                floor.getMessage());
        for (double bad : new double[] {0.0, -1.0, Double.POSITIVE_INFINITY, Double.NaN}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Calibrator.calibrate(s -> 1.0 / s, bad));
            assertTrue(e.getMessage().contains("positive finite"), e.getMessage());
        }
        IllegalArgumentException flat = assertThrows(IllegalArgumentException.class,
                () -> Calibrator.calibrate(s -> 0.5, 1.0));
        assertTrue(flat.getMessage().contains("does not depend on the noise"), flat.getMessage());
        IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
                () -> Calibrator.calibrate(s -> Double.NaN, 1.0));
        assertTrue(nan.getMessage().contains("NaN"), nan.getMessage());
        IllegalArgumentException badRate = assertThrows(IllegalArgumentException.class,
                () -> Calibrator.dpSgdNoiseMultiplier(1.0, 1e-5, 0.0, 100));
        assertTrue(badRate.getMessage().contains("sampling rate q"), badRate.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Calibrator.dpSgdNoiseMultiplier(1.0, 1e-5, 0.01, 0));
        assertThrows(IllegalArgumentException.class, () -> Calibrator.dpSgdNoiseMultiplier(1.0, 1.0, 0.01, 10));
    }

    @Test
    void aClosedFormIsMovedToTheSafeSideOfItsTargetByRoundingOnly() {
        // epsilon = 1 / noise: the closed form 1 / target can land a bit above the target in doubles
        java.util.function.DoubleUnaryOperator eps = s -> 1 / s;
        for (double target : new double[] {0.1, 0.3, 0.7, 2.0, 3.3, 9.1}) {
            double closedForm = Math.nextDown(1 / target);   // one unit in the last place too little noise
            Calibration c = Calibrator.safeSide(closedForm, eps, target);
            assertTrue(c.epsilon() <= target && eps.applyAsDouble(c.noise()) == c.epsilon(), target + ": " + c);
            assertTrue(c.noise() >= closedForm && c.noise() <= closedForm * (1 + 1e-11), "moved by rounding only: " + c);
        }
        assertEquals(4.0, Calibrator.safeSide(4.0, eps, 0.25).noise(), 0.0, "a closed form already within the target is kept");
        IllegalStateException wrong = assertThrows(IllegalStateException.class, () -> Calibrator.safeSide(3.9, eps, 0.25));
        assertTrue(wrong.getMessage().contains("more than rounding"), wrong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Calibrator.safeSide(Double.NaN, eps, 0.25));
        assertThrows(IllegalArgumentException.class, () -> Calibrator.safeSide(4.0, eps, 0));
    }
}
