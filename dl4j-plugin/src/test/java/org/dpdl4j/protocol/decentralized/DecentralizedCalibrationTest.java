package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.runtime.LearningRate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecentralizedCalibrationTest {

    private static DecentralizedConfig config(DecentralizedAlgorithm algo, ProtectedUnit unit, SamplingScheme sampling,
                                              DecentralizedCalibration.Result r, long rounds) {
        return new DecentralizedConfig(algo, unit, LocalObjective.MEAN, 1.0, r.sigmaCdp(), r.sigmaCor(), new LearningRate.Constant(0.1),
                0, 64, sampling, rounds, 1, DecorCompatibility.NONE);
    }

    @ParameterizedTest(name = "{0} {1} {2} eps={3}")
    @CsvSource({
            "LDP, USER, FIXED_SIZE_WITHOUT_REPLACEMENT, 10",
            "CDP, USER, FIXED_SIZE_WITHOUT_REPLACEMENT, 10",
            "DECOR, USER, FIXED_SIZE_WITHOUT_REPLACEMENT, 10",
            "LDP, EXAMPLE, POISSON, 2",
            "CDP, EXAMPLE, POISSON, 2",
            "DECOR, EXAMPLE, POISSON, 2",
            "DECOR, EXAMPLE, FIXED_SIZE_WITHOUT_REPLACEMENT, 4"})
    void calibratedNoiseMeetsTheTargetAtOrBelow(DecentralizedAlgorithm algo, ProtectedUnit unit, SamplingScheme sampling, double eps) {
        Graph ring = Topologies.ring(16);
        long rounds = 1000;
        long m = 3000;
        DecentralizedCalibration.Result r = DecentralizedCalibration.calibrate(algo, unit, sampling, 1.0, 64, m, rounds, eps, 1e-5, ring,
                Adversary.eavesdropper(), NoisePairChoice.SMALLEST_SIGMA_CDP);
        DecentralizedConfig cfg = config(algo, unit, sampling, r, rounds);
        Graph accounted = algo == DecentralizedAlgorithm.CDP ? Topologies.complete(16) : ring;
        double achieved = DecentralizedPrivacy.of(cfg, accounted, Adversary.eavesdropper(), m).plannedEpsilon(rounds, 1e-5);
        assertTrue(achieved <= eps, "achieved " + achieved + " > target " + eps);
        assertTrue(achieved > 0.999 * eps, "achieved " + achieved + " is not tight to " + eps);
    }

    @Test
    void baselinesMatchTheSpecExample() {
        // Spec 3.5.2 (Renyi DP's exact zCDP conversion): eps = 10, delta = 1e-5, T = 3500, C = 1, n = 16 ->
        // sigma_ldp = 67.1945, sigma_cdp^CDP = 16.7986.
        Graph ring = Topologies.ring(16);
        var ldp = DecentralizedCalibration.calibrate(DecentralizedAlgorithm.LDP, ProtectedUnit.USER, SamplingScheme.FULL_BATCH, 1, 10, 10,
                3500, 10, 1e-5, ring, Adversary.eavesdropper(), NoisePairChoice.SMALLEST_SIGMA_CDP, AccountantFactory.renyi());
        var cdp = DecentralizedCalibration.calibrate(DecentralizedAlgorithm.CDP, ProtectedUnit.USER, SamplingScheme.FULL_BATCH, 1, 10, 10,
                3500, 10, 1e-5, ring, Adversary.eavesdropper(), NoisePairChoice.SMALLEST_SIGMA_CDP, AccountantFactory.renyi());
        assertEquals(67.1945, ldp.sigmaCdp(), 1e-4);
        assertEquals(16.7986, cdp.sigmaCdp(), 1e-4);
        // The default accounting prices these Gaussian rounds by their exact curve: the noise shrinks by
        // sqrt(2 rho(eps, delta)) / mu(eps, delta), and the exact epsilon of the calibrated run is the target (to 1e-9).
        var exact = DecentralizedCalibration.calibrate(DecentralizedAlgorithm.LDP, ProtectedUnit.USER, SamplingScheme.FULL_BATCH, 1, 10,
                10, 3500, 10, 1e-5, ring, Adversary.eavesdropper(), NoisePairChoice.SMALLEST_SIGMA_CDP);
        double ratio = Math.sqrt(2 * ZCdp.rho(10, 1e-5)) / GaussianPrivacyCurve.mu(10, 1e-5);
        assertEquals(ratio * 67.1945, exact.sigmaCdp(), 1e-3);
        double mu = 2 * Math.sqrt(3500) / exact.sigmaCdp();   // sensitivity 2C, sigma per round, 3500 rounds
        double eps = GaussianPrivacyCurve.epsilon(mu, 1e-5);
        assertTrue(eps <= 10 && eps > 10 - 1e-6, "exact epsilon " + eps);
    }

    @Test
    void curiousUsersNeedMoreNoiseThanTheEavesdropper() {
        Graph ring = Topologies.ring(16);
        var eav = DecentralizedCalibration.calibrate(DecentralizedAlgorithm.DECOR, ProtectedUnit.USER, SamplingScheme.FULL_BATCH, 1, 10, 10,
                3500, 10, 1e-5, ring, Adversary.eavesdropper(), NoisePairChoice.SMALLEST_SIGMA_CDP);
        var cur = DecentralizedCalibration.calibrate(DecentralizedAlgorithm.DECOR, ProtectedUnit.USER, SamplingScheme.FULL_BATCH, 1, 10, 10,
                3500, 10, 1e-5, ring, Adversary.curious(), NoisePairChoice.SMALLEST_SIGMA_CDP);
        assertTrue(cur.sigmaCdp() > eav.sigmaCdp() || cur.sigmaCor() > eav.sigmaCor());
    }

    @Test
    void referenceCodeEpsilonIsAPerStepValueFarBelowTheProperGuarantee() {
        double kappa = ReferenceCodeEpsilon.kappaFor(1.0, 1.0, 64, 3750);
        assertEquals(1.0, ReferenceCodeEpsilon.of(kappa, 1.0, 64, 3750), 1e-6);
        assertTrue(ReferenceCodeEpsilon.of(kappa * 2, 1.0, 64, 3750) > 1.0, "monotone in kappa");
        DecentralizedCalibration.Result r = DecentralizedCalibration.forKappa(DecentralizedAlgorithm.LDP, kappa, 1e-5, Topologies.ring(16),
                Adversary.eavesdropper(), NoisePairChoice.SMALLEST_SIGMA_CDP);
        DecentralizedConfig cfg = new DecentralizedConfig(DecentralizedAlgorithm.LDP, ProtectedUnit.EXAMPLE, LocalObjective.MEAN, 1.0,
                r.sigmaCdp(), 0, new LearningRate.Constant(1), 0, 64, SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT, 1000, 1,
                DecorCompatibility.NONE);
        double proper = DecentralizedPrivacy.of(cfg, Topologies.ring(16), Adversary.eavesdropper(), 3750).plannedEpsilon(1000, 1e-5);
        assertTrue(proper > 10, "1000 composed steps plus the delta term: " + proper);
    }

    @Test
    void pairwiseNoiseStaysWithinTenTimesTheLdpLevel() {
        // On the complete graph the accountant alone allows sigma_cor -> infinity; in float that would not cancel.
        Graph complete = Topologies.complete(16);
        var r = DecentralizedCalibration.calibrate(DecentralizedAlgorithm.DECOR, ProtectedUnit.USER, SamplingScheme.FULL_BATCH, 1, 10, 10,
                3500, 10, 1e-5, complete, Adversary.eavesdropper(), NoisePairChoice.SMALLEST_SIGMA_CDP);
        double sigmaLdp = 67.1945;
        assertTrue(r.sigmaCor() <= 10 * sigmaLdp * 1.0001, "sigma_cor " + r.sigmaCor());
        assertTrue(r.feasible().stream().allMatch(p -> p.sigmaCor() <= 10 * sigmaLdp * 1.0001));
    }
}
