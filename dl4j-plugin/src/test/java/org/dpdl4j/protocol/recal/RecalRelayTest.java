package org.dpdl4j.protocol.recal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Spec 5.7 oracles 2, 3 and 6: the baton's sum, the walk, the noise on a publication; and the budget stop. */
class RecalRelayTest {
    private static final List<NodeData> DATA = LassoInstances.agents(8, 30, 20, 2, 11);

    private static RelayRecal dpRecal(long iterations, double zeta, long plannedLci, double epsilon) {
        CompositeProblem p = CompositeProblem.of(DATA, SmoothLoss.LEAST_SQUARES, Penalty.l1(1.0), false);
        PrimalDualRunBuilder b = PrimalDualRunBuilder.of(PrimalDualAlgorithm.DP_RECAL).model(LassoInstances.leastSquares(20, 2, false))
                .problem(p).graph(Topologies.ring(8)).iterations(iterations).clip(5).zeta(zeta).noiseKind(NoiseKind.SEEDED).seed(9)
                .plannedLci(plannedLci);
        if (Double.isNaN(epsilon)) {
            b.noiseMultiplier(0.5);
        } else {
            b.target(epsilon, 1e-5);
        }
        return (RelayRecal) b.build();
    }

    @Test
    void theBatonCarriesTheSumOfThePublishedDuals() {
        RelayRecal run = dpRecal(400, 0.99, 0, 5);
        for (int k = 0; k < 400; k++) {
            run.step();
            INDArray sum = run.publishedDuals().sum(0);
            double err = run.batonSum().sub(sum).norm2Number().doubleValue() / Math.max(1e-300, sum.norm2Number().doubleValue());
            assertTrue(err < 1e-12, "iteration " + k + ": |s - sum lambda| / |sum lambda| = " + err);
        }
    }

    @Test
    void theWalkVisitsAgentsInProportionToTheirDegree() {
        // a non-regular graph: a 6-cycle with one chord, so degrees are 2 and 3
        Graph g = Graph.of(6, new int[]{0, 1}, new int[]{1, 2}, new int[]{2, 3}, new int[]{3, 4}, new int[]{4, 5}, new int[]{5, 0},
                new int[]{0, 3});
        int k = 200_000;
        int[] path = BatonWalk.draw(g, k, new SplittableRandom(4));
        for (int t = 1; t < path.length; t++) {
            assertTrue(g.hasEdge(path[t - 1], path[t]), "the baton only moves to a neighbour");
        }
        long[] counts = BatonWalk.activations(6, path);
        double[] p = BatonWalk.stationaryFrequencies(g);
        double chi2 = 0;
        for (int i = 0; i < 6; i++) {
            double expected = k * p[i];
            chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
        }
        // the walk's samples are correlated (mixing time ~ a few steps), so allow a few times the 5-dof 99.9% quantile 20.5
        assertTrue(chi2 < 100, "chi-square " + chi2 + " for counts " + java.util.Arrays.toString(counts));
        assertEquals(3.0 / 14, p[0], 1e-15);
    }

    @Test
    void onARingTheLciIsAboutKOverN() {
        long k = 48_000;
        int[] path = BatonWalk.draw(Topologies.ring(8), k, new SplittableRandom(1));
        long lci = BatonWalk.lci(8, path);
        assertTrue(lci >= k / 8 && lci < 1.1 * k / 8, "LCI " + lci + " for K/n = " + k / 8);
    }

    @Test
    void aPublicationCarriesNoiseOfTheScheduledVariance() {
        double zeta = 0.9;
        RelayRecal run = dpRecal(240, zeta, 0, Double.NaN);
        DecayingNoisePrivacy privacy = run.privacy();
        RecalSteps steps = run.steps();
        int[] path = run.path();
        double[] sumSq = new double[31];
        long[] count = new long[31];
        for (int k = 0; k < 240; k++) {
            int i = path[k];
            INDArray xOld = run.localModels().slice(i).dup();
            INDArray lamOld = run.publishedDuals().slice(i).dup();
            INDArray yOld = run.output();
            INDArray sOld = run.batonSum();
            run.step();
            // the noiseless dual of (12a)-(12c), recomputed here from the state before the step
            INDArray grad = run.problem().zeros();
            run.problem().agent(i).gradient(xOld, run.clip(), grad);
            INDArray x = xOld.sub(grad.add(lamOld).mul(steps.tau()[i]));
            INDArray y = run.problem().prox(yOld.add(sOld.mul(steps.gamma())), steps.gamma());
            INDArray lam = lamOld.add(x.mul(2).sub(xOld).sub(y.mul(2).sub(yOld)).mul(steps.beta()[i]));
            assertTrue(run.output().sub(y).norm2Number().doubleValue() < 1e-12, "y is the noiseless prox step");
            INDArray noise = run.publishedDuals().slice(i).sub(lam);
            int m = (int) run.activations()[i];
            if (m <= 30) {
                sumSq[m] += noise.mul(noise).sumNumber().doubleValue();
                count[m] += noise.length();
            }
        }
        for (int m = 1; m <= 20; m++) {
            double expected = Math.pow(privacy.std(0, m), 2);
            assertEquals(expected, privacy.sigma(0) * privacy.sigma(0) * Math.pow(zeta, m - 1), 1e-12 * expected);
            double empirical = sumSq[m] / count[m];
            // 8 agents x 40 coordinates at each m: a relative standard error of about 1/sqrt(160) = 8%
            assertEquals(expected, empirical, 0.35 * expected, "publication " + m);
        }
    }

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path tempDir;

    @Test
    void anAgentOverItsPlannedLciStopsPublishingAndTheRunSaysSo() {
        RelayRecal run = dpRecal(800, 1.0, 60, 4);
        run.runToEnd();
        long[] k = run.activations();
        assertTrue(java.util.Arrays.stream(k).allMatch(v -> v <= 60), "nobody publishes more than the planned LCI: "
                + java.util.Arrays.toString(k));
        assertTrue(!run.exhaustedAgents().isEmpty(), "with K/n = 100 some agent reaches the planned 60");
        assertTrue(run.privacyStatement().contains("stopped publishing"), run.privacyStatement());
        assertTrue(run.privacyStatement().contains("Not accounted: the step sizes"), run.privacyStatement());
        assertTrue(run.epsilon() <= 4 * (1 + 1e-12), "epsilon " + run.epsilon());
        assertEquals(4, run.epsilon(), 1e-6, "an agent that published 60 times spent exactly the target");
        assertTrue(run.exhaustedAgents().get(0).matches("agent \\d+ stopped publishing at iteration \\d+ after 60 publications"
                + " \\(epsilon .*"), run.exhaustedAgents().toString());

        // a run resumed after some agents stopped still lists them, as the uninterrupted run does
        java.nio.file.Path file = tempDir.resolve("recal.ckpt");
        try (RelayRecal first = dpRecal(800, 1.0, 60, 4)) {
            for (int step = 0; step < 700; step++) {
                first.step();
            }
            assertTrue(!first.exhaustedAgents().isEmpty(), "some agent stopped before the checkpoint");
            org.dpdl4j.runtime.RunCheckpoint.save(first, file);
        }
        try (RelayRecal resumed = dpRecal(800, 1.0, 60, 4)) {
            org.dpdl4j.runtime.RunCheckpoint.resume(resumed, org.dpdl4j.runtime.RunCheckpoint.read(file),
                    org.dpdl4j.runtime.ResumePolicy.strict());
            resumed.runToEnd();
            assertEquals(run.exhaustedAgents(), resumed.exhaustedAgents());
        }
    }

    /** Publications an earlier version recorded as zCDP statements do not go on as one mechanism with today's. */
    @Test
    void aLedgerOfZcdpPublicationsIsAMechanismChangeAndItsOwnIsNot() {
        RelayRecal run = dpRecal(80, 0.99, 0, 2);
        run.run(20);
        org.dpdl4j.privacy.ledger.PrivacyLedger own = run.ledger().orElseThrow().ledger();
        assertTrue(!own.isEmpty() && run.mechanismChangeSince(own) == null, "its own publications: " + own.entries());
        org.dpdl4j.privacy.ledger.PrivacyLedger former = new org.dpdl4j.privacy.ledger.PrivacyLedger();
        former.add(new org.dpdl4j.privacy.ledger.LedgerEntry(new org.dpdl4j.privacy.accounting.ZCdpEvent(0.01), 3, 0, "publication",
                false, 0));
        String change = run.mechanismChangeSince(former);
        assertTrue(change != null && change.contains("dp-recal") && change.contains("zCDP statements by an earlier version"), change);
    }

    @Test
    void theCalibratedRunSpendsItsTargetAtTheEnd() {
        RelayRecal run = dpRecal(800, 0.99, 0, 2);
        run.runToEnd();
        assertTrue(run.exhaustedAgents().isEmpty(), "calibrated to its own count, no agent is stopped");
        assertEquals(2, run.epsilon(), 1e-6);
        double rho = run.privacy().rho(run.activations());
        assertEquals(org.dpdl4j.privacy.accounting.GaussianPrivacyCurve.epsilon(Math.sqrt(2 * rho), 1e-5), run.epsilon(), 1e-9,
                "the ledger prices the publications of Theorem 3's rho on the exact Gaussian curve");
    }

    @Test
    void privateRunsRefuseAYCorrectionThatWouldPublishAGradient() {
        CompositeProblem p = CompositeProblem.of(DATA, SmoothLoss.LEAST_SQUARES, Penalty.l1(1.0), false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PrimalDualRunBuilder.of(PrimalDualAlgorithm.DP_RECAL)
                .model(LassoInstances.leastSquares(20, 2, false)).problem(p).graph(Topologies.ring(8)).iterations(10).clip(1)
                .noiseMultiplier(1).relaxation(1, 0.5).build());
        assertTrue(e.getMessage().contains("mu = 0 or theta = 2"), e.getMessage());
        IllegalArgumentException noClip = assertThrows(IllegalArgumentException.class, () -> PrimalDualRunBuilder.of(PrimalDualAlgorithm.DP_NIDS)
                .model(LassoInstances.leastSquares(20, 2, false)).problem(p).graph(Topologies.ring(8)).iterations(10).target(1, 1e-5).build());
        assertTrue(noClip.getMessage().contains("--clip"), noClip.getMessage());
    }
}
