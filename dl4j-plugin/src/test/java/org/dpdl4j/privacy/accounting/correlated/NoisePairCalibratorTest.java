package org.dpdl4j.privacy.accounting.correlated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.junit.jupiter.api.Test;

class NoisePairCalibratorTest {

    private static void assertAtOrBelowAndClose(CalibrationResult r) {
        double target = r.target().epsilon();
        assertTrue(r.feasible().size() > 0, "some pair must be feasible");
        for (CalibratedPair p : r.feasible()) {
            assertTrue(p.epsilon() <= target, "achieved " + p.epsilon() + " exceeds target " + target);
            assertTrue(p.epsilon() >= target * (1 - 1e-4), "achieved " + p.epsilon() + " is far below target " + target);
            assertTrue(p.sigmaCdp() >= r.baselines().sigmaCdpCentral() && p.sigmaCdp() <= r.baselines().sigmaLdp());
        }
        for (int k = 1; k < r.feasible().size(); k++) {
            assertTrue(r.feasible().get(k).sigmaCor() <= r.feasible().get(k - 1).sigmaCor() * (1 + 1e-6),
                    "more private noise needs less correlated noise");
        }
    }

    @Test
    void ringOf16AtEpsilon10StopsAtOrBelowTheTarget() {
        SecRdpAccountant acc = new SecRdpAccountant(Topologies.ring(16));
        CalibrationResult r = new NoisePairCalibrator(acc).calibrate(CalibrationTarget.decor(10, 1e-5, 3500, 1.0, Adversary.eavesdropper()));
        assertAtOrBelowAndClose(r);
        // The grid starts at the CDP level, where no finite sigma_cor suffices.
        assertTrue(r.infeasibleGridValues() >= 1);
        List<CalibratedPair> candidates = r.candidates();
        assertEquals(3, candidates.size());
        // The smallest feasible sigma_cdp is the reference repository's first row (17.827..., 188, eps 10.29):
        // same sigma_cdp, but a larger sigma_cor because this search does not overshoot the budget.
        CalibratedPair first = candidates.get(0);
        assertEquals(17.827099282407094, first.sigmaCdp(), 1e-9);
        assertTrue(first.sigmaCor() > 188 && first.sigmaCor() < 260, "sigma_cor " + first.sigmaCor());
        // The largest is the LDP end: no correlated noise needed.
        CalibratedPair last = candidates.get(2);
        assertEquals(r.baselines().sigmaLdp(), last.sigmaCdp(), 0);
        assertTrue(last.sigmaCor() < 1e-3 * last.sigmaCdp(), "LDP end needs (almost) no correlated noise: " + last.sigmaCor());
        // Re-evaluating a returned pair reproduces its epsilon.
        SecRdpGuarantee again = SecRdpGuarantee.of(acc.kappa(first.noise(), Adversary.eavesdropper()), 2.0, 3500, 1e-5);
        assertEquals(first.epsilon(), again.epsilon(), 0);
    }

    @Test
    void handlesEveryAdversary() {
        Graph g = Topologies.torus(4, 4);
        SecRdpAccountant acc = new SecRdpAccountant(g);
        for (Adversary a : List.of(Adversary.curious(), Adversary.colluding(2))) {
            CalibrationResult r = new NoisePairCalibrator(acc).calibrate(CalibrationTarget.decor(5, 1e-5, 1000, 0.5, a));
            assertAtOrBelowAndClose(r);
            for (CalibratedPair p : r.feasible()) {
                assertEquals(a, p.guarantee().kappa().adversary());
                assertTrue(p.guarantee().kappa().isExact());
            }
        }
        // Upper-bound regime (C(16, 5) = 4368 is exact, so use a larger graph): still at or below the target.
        SecRdpAccountant big = new SecRdpAccountant(Topologies.randomRegular(40, 16, 3));
        CalibrationResult r = new NoisePairCalibrator(big).calibrate(
                new CalibrationTarget(8, 1e-6, 500, UserLevelSensitivity.gopa(), Adversary.colluding(4), 12));
        assertAtOrBelowAndClose(r);
        assertEquals(KappaExactness.UPPER_BOUND, r.feasible().get(0).guarantee().kappa().exactness());
    }

    @Test
    void ringOf1000CalibratesQuickly() {
        long t0 = System.nanoTime();
        SecRdpAccountant acc = new SecRdpAccountant(Topologies.ring(1000));
        long t1 = System.nanoTime();
        CalibrationResult r = new NoisePairCalibrator(acc).calibrate(CalibrationTarget.decor(10, 1e-5, 3500, 1.0, Adversary.eavesdropper()));
        long t2 = System.nanoTime();
        System.out.printf("ring n=1000 eavesdropper: Laplacian eigendecomposition %.2f s, calibration of %d pairs %.2f s, total %.2f s%n",
                (t1 - t0) / 1e9, r.feasible().size(), (t2 - t1) / 1e9, (t2 - t0) / 1e9);
        assertAtOrBelowAndClose(r);
        assertTrue((t2 - t0) / 1e9 < 20, "n = 1000 calibration took " + (t2 - t0) / 1e9 + " s");
    }
}
