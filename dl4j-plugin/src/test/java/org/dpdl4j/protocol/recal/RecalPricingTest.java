package org.dpdl4j.protocol.recal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a DP-RECAL run is priced: least squares with {@code tau_i <= 1/L_i} with the drift of the agents' state, a
 * guarantee when the steps follow a public feature bound (marked when they follow the agents' own data), anything else
 * the paper's way and marked, saying why; and a checkpoint resumes only under the pricing, clip and steps it was saved
 * with.
 */
class RecalPricingTest {
    private static final List<NodeData> DATA = LassoInstances.agents(6, 30, 20, 2, 11);
    private static final List<NodeData> CLASSES = LassoInstances.classification(6, 30, 20, 2, 11);
    /** A public bound on the records' feature norms (the Gaussian features of 20 dimensions stay well below it). */
    private static final double BOUND = 12;

    private static PrimalDualRunBuilder dpRecal(boolean softmax) {
        CompositeProblem p = CompositeProblem.of(softmax ? CLASSES : DATA, softmax ? SmoothLoss.LOGISTIC : SmoothLoss.LEAST_SQUARES,
                Penalty.l1(1.0), softmax);   // the softmax layer has an intercept
        return PrimalDualRunBuilder.of(PrimalDualAlgorithm.DP_RECAL)
                .model(softmax ? LassoInstances.softmax(20, 2) : LassoInstances.leastSquares(20, 2, false)).problem(p)
                .graph(Topologies.ring(6)).iterations(120).clip(2).zeta(0.99).noiseKind(NoiseKind.SEEDED).seed(5).target(3, 1e-5);
    }

    @Test
    void leastSquaresWithPublicStepsIsPricedWithTheDriftAndIsAGuarantee() {
        RelayRecal run = (RelayRecal) dpRecal(false).featureNormBound(BOUND).build();
        run.runToEnd();
        assertEquals(PublicationSensitivity.STATE_DRIFT, run.privacy().growth());
        assertTrue(run.ledger().orElseThrow().notAGuarantee().isEmpty(), run.ledger().orElseThrow().notAGuarantee().toString());
        assertTrue(run.privacyStatement().contains("the drift of each agent's unpublished state is priced"), run.privacyStatement());
        assertTrue(run.privacyStatement().contains("Delta_i (m + 1)/2 at its m-th"), run.privacyStatement());
        assertEquals(3, run.epsilon(), 1e-6, "calibrated to its own count, the most active agent spends the target");
        double rho = run.privacy().rho(run.activations());
        assertEquals(org.dpdl4j.privacy.accounting.GaussianPrivacyCurve.epsilon(Math.sqrt(2 * rho), 1e-5), run.epsilon(), 1e-9);
        // the paper's pricing of the same run would draw far less noise
        RelayRecal paper = (RelayRecal) dpRecal(false).featureNormBound(BOUND).paperAccounting(true).build();
        assertTrue(run.privacy().sigma(0) > 5 * paper.privacy().sigma(0), run.privacy().sigma(0) + " against " + paper.privacy().sigma(0));
    }

    @Test
    void stepsFromTheAgentsOwnDataArePricedWithTheDriftButMarked() {
        RelayRecal run = (RelayRecal) dpRecal(false).build();
        assertEquals(PublicationSensitivity.STATE_DRIFT, run.privacy().growth());
        String why = run.ledger().orElseThrow().notAGuarantee().orElseThrow();
        assertEquals(PrimalDualRunSpec.DATA_STEPS, why);
        assertTrue(why.contains("--feature-norm-bound B"), why);
        assertEquals(why, dpRecal(false).plannedLedger(LassoInstances.leastSquares(20, 2, false).getLayerWiseConfigurations())
                .orElseThrow().notAGuarantee(), "the dry run says what the run says");
    }

    @Test
    void whatTheProofDoesNotCoverIsPricedThePapersWayAndMarked() {
        var leastSquares = LassoInstances.leastSquares(20, 2, false).getLayerWiseConfigurations();
        for (var c : List.of(new Object[] {dpRecal(false).featureNormBound(BOUND).paperAccounting(true), "--paper-accounting", leastSquares},
                new Object[] {dpRecal(false).featureNormBound(BOUND).stepScale(2.5), "exceeds 1/L_i", leastSquares},
                new Object[] {dpRecal(true), "the model's loss is logistic", LassoInstances.softmax(20, 2).getLayerWiseConfigurations()})) {
            PrimalDualRunBuilder builder = (PrimalDualRunBuilder) c[0];
            RelayRecal run = (RelayRecal) builder.build();
            assertEquals(PublicationSensitivity.CONDITIONED_ON_STATE, run.privacy().growth());
            String why = run.ledger().orElseThrow().notAGuarantee().orElseThrow();
            assertTrue(why.contains("not a proven bound") && why.contains((String) c[1]), why);
            var planned = builder.plannedLedger((org.deeplearning4j.nn.conf.MultiLayerConfiguration) c[2]);
            assertEquals(why, planned.orElseThrow().notAGuarantee(), "the dry run says what the run says");
        }
        // step scale 2 is the largest the proof allows
        RelayRecal edge = (RelayRecal) dpRecal(false).featureNormBound(BOUND).stepScale(2).build();
        assertEquals(PublicationSensitivity.STATE_DRIFT, edge.privacy().growth());
        assertTrue(edge.ledger().orElseThrow().notAGuarantee().isEmpty());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PrimalDualRunBuilder.of(PrimalDualAlgorithm.DP_PG_EXTRA)
                .model(LassoInstances.leastSquares(20, 2, false)).problem(CompositeProblem.of(DATA, SmoothLoss.LEAST_SQUARES,
                        Penalty.l1(1.0), false)).graph(Topologies.ring(6)).iterations(10).clip(2).noiseKind(NoiseKind.SEEDED)
                .target(3, 1e-5).paperAccounting(true).build());
        assertTrue(e.getMessage().contains("applies to dp-recal only"), e.getMessage());
        IllegalArgumentException contradicted = assertThrows(IllegalArgumentException.class, () -> dpRecal(false)
                .settings(RunSettings.empty().with(PrimalDualOptions.PAPER_ACCOUNTING, true)).build());
        assertTrue(contradicted.getMessage().contains("build it as it was recorded"), contradicted.getMessage());
    }

    /**
     * With mu = 0 the AFBS corrections cancel for any theta: the agent publishes beta (2 x_bar - x) and continues from
     * x_bar, as with theta = 2, which is what the drift's proof assumes. The whole run (noise included) is the same.
     */
    @Test
    void withMuZeroEveryThetaRunsTheIterationTheProofAssumes() {
        RelayRecal vuCondat = (RelayRecal) dpRecal(false).featureNormBound(BOUND).relaxation(2, 0).build();
        RelayRecal relaxed = (RelayRecal) dpRecal(false).featureNormBound(BOUND).relaxation(0.7, 0).build();
        assertEquals(vuCondat.privacy().sigma(2), relaxed.privacy().sigma(2), 0, "the same sensitivity, so the same noise");
        vuCondat.runToEnd();
        relaxed.runToEnd();
        double scale = vuCondat.publishedDuals().norm2Number().doubleValue();
        assertTrue(scale > 0);
        assertEquals(0, vuCondat.publishedDuals().sub(relaxed.publishedDuals()).norm2Number().doubleValue(), 1e-9 * scale);
        assertEquals(0, vuCondat.localModels().sub(relaxed.localModels()).norm2Number().doubleValue(),
                1e-9 * vuCondat.localModels().norm2Number().doubleValue());
    }

    private static PrimalDualRunBuilder recorded(PrimalDualRunBuilder b, boolean paper) {
        // settings as a command line records them, so that a change between run and resume is one the checks see
        RunSettings s = RunSettings.empty().with(PrimalDualOptions.ZETA, 0.99);
        return b.settings(paper ? s.with(PrimalDualOptions.PAPER_ACCOUNTING, true) : s).paperAccounting(paper);
    }

    @Test
    void aCheckpointResumesOnlyUnderThePricingClipAndStepsItWasSavedWith(@TempDir Path dir) {
        Path paperFile = dir.resolve("paper.ckpt");
        Path driftFile = dir.resolve("drift.ckpt");
        try (CompositeRun paper = recorded(dpRecal(false).featureNormBound(BOUND), true).build();
             CompositeRun drift = recorded(dpRecal(false).featureNormBound(BOUND), false).build()) {
            paper.run(30);
            drift.run(30);
            RunCheckpoint.save(paper, paperFile);
            RunCheckpoint.save(drift, driftFile);
        }
        try (CompositeRun drift = recorded(dpRecal(false).featureNormBound(BOUND), false).build()) {
            RuntimeException refused = assertThrows(RuntimeException.class,
                    () -> RunCheckpoint.resume(drift, RunCheckpoint.read(paperFile), ResumePolicy.allowingChanges()));
            assertTrue(refused.getMessage().contains("priced its publications the paper's way"), refused.getMessage());
        }
        try (CompositeRun paper = recorded(dpRecal(false).featureNormBound(BOUND), true).build()) {
            RuntimeException refused = assertThrows(RuntimeException.class,
                    () -> RunCheckpoint.resume(paper, RunCheckpoint.read(driftFile), ResumePolicy.allowingChanges()));
            assertTrue(refused.getMessage().contains("priced its publications with the drift"), refused.getMessage());
        }
        for (PrimalDualRunBuilder other : List.of(dpRecal(false).featureNormBound(BOUND).clip(1),
                dpRecal(false).featureNormBound(BOUND).stepScale(0.5))) {
            try (CompositeRun changed = recorded(other, false).build()) {
                RuntimeException refused = assertThrows(RuntimeException.class,
                        () -> RunCheckpoint.resume(changed, RunCheckpoint.read(driftFile), ResumePolicy.allowingChanges()));
                assertTrue(refused.getMessage().contains("other steps or clip"), refused.getMessage());
            }
        }
        // the same first sensitivity and tau with another beta and clip (a bound of sqrt(2) B doubles L, step scale 2
        // keeps tau, half the clip keeps 4 beta tau G): the drift built before would enter doubled; the bound is fixed
        // on resume, and the saved steps would refuse it too
        try (CompositeRun changed = recorded(dpRecal(false).featureNormBound(Math.sqrt(2) * BOUND).stepScale(2).clip(1), false)
                .build()) {
            RuntimeException refused = assertThrows(RuntimeException.class,
                    () -> RunCheckpoint.resume(changed, RunCheckpoint.read(driftFile), ResumePolicy.allowingChanges()));
            assertTrue(refused.getMessage().contains("feature-norm-bound"), refused.getMessage());
        }
        for (boolean paper : new boolean[] {true, false}) {
            try (CompositeRun same = recorded(dpRecal(false).featureNormBound(BOUND), paper).build()) {
                RunCheckpoint.resume(same, RunCheckpoint.read(paper ? paperFile : driftFile), ResumePolicy.strict());
                assertEquals(30, same.completedSteps());
            }
        }
    }
}
