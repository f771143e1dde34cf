package org.dpdl4j.protocol.federated;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 7.5 oracle 2: GOPA's sum, unbiasedness and variance, and its accountant's limits; calibration. */
class GopaTest {
    private static final int K = 20;

    @Test
    void revealedValuesSumToTheTrueSumPlusThePrivateNoiseOnly() {
        Graph g = Topologies.randomKOut(K, 3, 1);
        GopaAveraging gopa = new GopaAveraging(g, 0.7, 40.0, DataType.DOUBLE);
        INDArray values = Nd4j.rand(DataType.DOUBLE, K, 50);
        SeededNoiseStreams streams = new SeededNoiseStreams(5);
        INDArray revealed = gopa.reveal(values, streams, 3);
        INDArray eta = Nd4j.zeros(DataType.DOUBLE, K, 50);
        streams.addPrivateNoise(eta, 3, 0.7);   // the parties' private terms, regenerated from their streams
        INDArray residual = revealed.sum(0).sub(values.sum(0)).sub(eta.sum(0));
        assertTrue(residual.amaxNumber().doubleValue() < 1e-11, "pairwise terms cancel exactly: " + residual.amaxNumber());
        assertTrue(revealed.sub(values).std(true).getDouble(0) > 40, "each revealed value carries pairwise noise");
    }

    @Test
    void theEstimateIsUnbiasedWithVarianceSigmaEtaSquaredOverK() {
        Graph g = Topologies.randomKOut(K, 2, 2);
        double sigmaEta = 1.5;
        GopaAveraging gopa = new GopaAveraging(g, sigmaEta, 10.0, DataType.DOUBLE);
        int p = 40_000;   // coordinates as independent Monte Carlo draws
        INDArray values = Nd4j.rand(DataType.DOUBLE, K, p);
        INDArray error = GopaAveraging.estimate(gopa.reveal(values, new SeededNoiseStreams(9), 0)).sub(values.mean(0));
        double mean = error.meanNumber().doubleValue();
        double variance = error.varNumber().doubleValue();
        double expected = sigmaEta * sigmaEta / K;
        assertEquals(0.0, mean, 5 * Math.sqrt(expected / p), "unbiased");
        assertEquals(expected, variance, 0.05 * expected, "variance sigma_eta^2 / K");
    }

    @Test
    void accountantTendsToCentralDpAsPairwiseNoiseGrowsAndIsLocalDpWithoutIt() {
        Graph g = Topologies.randomKOut(K, 3, 4);
        assertTrue(g.isConnected());
        GopaAccountant acc = new GopaAccountant(g, 0, CollusionAnalysis.worstCase());
        double sigma = 2.0;
        double alpha = 7.0;
        double local = acc.kappa(sigma, 0).rdp(alpha, 1.0);
        assertEquals(alpha / (2 * sigma * sigma), local, 1e-12 * local, "sigma_Delta = 0: local DP");
        double central = alpha / (2 * K * sigma * sigma);
        double previous = local;
        for (double ratio : new double[]{1, 10, 100, 1000}) {
            double rdp = acc.kappa(sigma, ratio * sigma).rdp(alpha, 1.0);
            assertTrue(rdp <= previous * (1 + 1e-12) && rdp >= central * (1 - 1e-9), "ratio " + ratio + ": " + rdp);
            previous = rdp;
        }
        assertEquals(central, previous, 0.01 * central, "sigma_Delta -> infinity: central DP alpha / (2 K sigma^2)");
    }

    @Test
    void colludersWeakenTheGuaranteeAndSampledSetsNeverExceedTheExactWorstCase() {
        Graph g = Topologies.randomKOut(K, 3, 6);
        GopaKappa none = new GopaAccountant(g, 0, CollusionAnalysis.worstCase()).kappa(1.0, 20.0);
        GopaKappa exact = new GopaAccountant(g, 2, CollusionAnalysis.worstCase()).kappa(1.0, 20.0);
        GopaKappa sampled = new GopaAccountant(g, 2, CollusionAnalysis.sampled(30, 1)).kappa(1.0, 20.0);
        assertEquals(GopaKappa.Basis.EXACT_WORST_CASE, exact.basis());
        assertEquals(190, exact.setsEvaluated());
        assertTrue(exact.kappa() > none.kappa(), "collusion weakens");
        assertTrue(sampled.kappa() <= exact.kappa() * (1 + 1e-9), "sampled <= worst case");
        assertEquals(GopaKappa.Basis.SAMPLED_SETS, sampled.basis());
        assertTrue(!sampled.isGuarantee() && exact.isGuarantee());
        // Too many sets to enumerate: the documented upper bound, never below the sampled estimate.
        Graph big = Topologies.randomKOut(60, 4, 7);
        int q = GopaAccountant.colludersOf(0.1, 60);
        assertEquals(6, q);
        GopaKappa bound = new GopaAccountant(big, q, CollusionAnalysis.worstCase()).kappa(1.0, 20.0);
        GopaKappa estimate = new GopaAccountant(big, q, CollusionAnalysis.sampled(20, 3)).kappa(1.0, 20.0);
        assertEquals(GopaKappa.Basis.UPPER_BOUND, bound.basis());
        assertTrue(bound.kappa() >= estimate.kappa(), "the bound is conservative");
    }

    /**
     * The budget follows the accountant that prices the ledger: by default the exact Gaussian curve, which allows a
     * larger kappa than zCDP's closed form (Renyi DP's); and a run calibrated to it ends at its target, not below, as its
     * ledger prices the round it records.
     */
    @Test
    void theKappaBudgetFollowsTheLedgersAccountant() {
        GopaAccountant acc = new GopaAccountant(Topologies.randomKOut(K, 3, 4), 0, CollusionAnalysis.worstCase());
        LedgerAccounting ledger = LedgerAccounting.standard(NeighbouringRelation.REPLACE_ONE);
        for (double eps : new double[] {1, 2, 4, 8}) {
            double exact = GopaAccountant.kappaBudget(eps, 1e-5, 100, 2.0);
            double zcdp = GopaAccountant.kappaBudget(eps, 1e-5, 100, 2.0, AccountantFactory.renyi());
            assertTrue(exact > 1.1 * zcdp, "epsilon " + eps + ": exact curve " + exact + " vs zCDP " + zcdp);
            FedAvgPrivacy.GopaMultipliers m = FedAvgPrivacy.calibrateGopa(acc, 0.5, 100, eps, 1e-5, AccountantFactory.standard());
            double spent = ledger.plannedEpsilon(new CorrelatedGaussianEvent(acc.kappa(m.noise() * 0.5, m.pairwise() * 0.5).kappa(), 0.5),
                    100, 1e-5);
            assertTrue(spent <= eps && spent > eps * (1 - 1e-6), "a run calibrated to " + eps + " spends " + spent);
        }
    }

    /**
     * With Renyi DP a calibrated run's noise multipliers are the levels of zCDP's kappa budget over S, bit for bit as before
     * the calibration followed the ledger's accountant: runs priced so keep their noise.
     */
    @Test
    void underRenyiDpTheMultipliersAreTheLevelsOfZcdpsBudget() {
        for (int colluders : new int[] {0, 2}) {
            GopaAccountant acc = new GopaAccountant(Topologies.randomKOut(8, 2, 5), colluders, CollusionAnalysis.worstCase());
            for (double clip : new double[] {1, 0.1, 0.37}) {
                for (double eps : new double[] {0.3, 1, 2, 4, 8, 16}) {
                    GopaCalibration.Levels levels = GopaCalibration.calibrate(acc, GopaAccountant.kappaBudget(eps, 1e-5, 50, 2 * clip,
                            AccountantFactory.renyi()));
                    FedAvgPrivacy.GopaMultipliers m = FedAvgPrivacy.calibrateGopa(acc, clip, 50, eps, 1e-5, AccountantFactory.renyi());
                    String what = colluders + " colluders, S " + clip + ", epsilon " + eps;
                    assertEquals(levels.sigmaPrivate() / clip, m.noise(), 0.0, what);
                    assertEquals(levels.sigmaPairwise() / clip, m.pairwise(), 0.0, what);
                }
            }
        }
    }

    @Test
    void calibrationFindsTheSmallestPrivateNoiseWithinTheBudget() {
        Graph g = Topologies.randomKOut(K, 3, 4);
        GopaAccountant acc = new GopaAccountant(g, 0, CollusionAnalysis.worstCase());
        double budget = GopaAccountant.kappaBudget(2.0, 1e-5, 100, 2.0);
        GopaCalibration.Levels levels = GopaCalibration.calibrate(acc, budget);
        assertTrue(levels.kappa().kappa() <= budget && levels.kappa().kappa() > 0.999 * budget, "kappa " + levels.kappa().kappa());
        // Nothing beats the central level: sigma_eta >= sqrt(1 / (K budget)), and GOPA gets within a few percent of it.
        double central = Math.sqrt(1.0 / (K * budget));
        assertTrue(levels.sigmaPrivate() >= central * (1 - 1e-9) && levels.sigmaPrivate() < 1.1 * central,
                levels.sigmaPrivate() + " vs central " + central);
        double ldp = Math.sqrt(1.0 / budget);
        assertTrue(levels.sigmaPairwise() <= 10 * ldp, "pairwise noise within 10 sigma_ldp, so it cancels in float: " + levels.sigmaPairwise());
        IllegalArgumentException all = assertThrows(IllegalArgumentException.class, () -> GopaAccountant.colludersOf(1.0, 10));
        assertTrue(all.getMessage().contains("[0, 1)"), all.getMessage());
        IllegalArgumentException eps = assertThrows(IllegalArgumentException.class, () -> GopaAccountant.kappaBudget(0, 1e-5, 10, 1));
        assertTrue(eps.getMessage().contains("target epsilon"), eps.getMessage());
    }
}
