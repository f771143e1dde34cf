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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a DP-RECAL run is priced: least squares with {@code tau_i <= 1/L_i} with the drift of the agents' state (a proven
 * bound, no mark), anything else the paper's way and marked not a guarantee, saying why; and a checkpoint resumes only
 * under the pricing it was saved with.
 */
class RecalPricingTest {
    private static final List<NodeData> DATA = LassoInstances.agents(6, 30, 20, 2, 11);
    private static final List<NodeData> CLASSES = LassoInstances.classification(6, 30, 20, 2, 11);

    private static PrimalDualRunBuilder dpRecal(boolean softmax) {
        CompositeProblem p = CompositeProblem.of(softmax ? CLASSES : DATA, softmax ? SmoothLoss.LOGISTIC : SmoothLoss.LEAST_SQUARES,
                Penalty.l1(1.0), softmax);   // the softmax layer has an intercept
        return PrimalDualRunBuilder.of(PrimalDualAlgorithm.DP_RECAL)
                .model(softmax ? LassoInstances.softmax(20, 2) : LassoInstances.leastSquares(20, 2, false)).problem(p)
                .graph(Topologies.ring(6)).iterations(120).clip(2).zeta(0.99).noiseKind(NoiseKind.SEEDED).seed(5).target(3, 1e-5);
    }

    @Test
    void leastSquaresIsPricedWithTheDriftAndIsAGuarantee() {
        RelayRecal run = (RelayRecal) dpRecal(false).build();
        run.runToEnd();
        assertEquals(PublicationSensitivity.STATE_DRIFT, run.privacy().growth());
        assertTrue(run.ledger().orElseThrow().notAGuarantee().isEmpty(), run.ledger().orElseThrow().notAGuarantee().toString());
        assertTrue(run.privacyStatement().contains("the drift of each agent's unpublished state is priced"), run.privacyStatement());
        assertTrue(run.privacyStatement().contains("Delta_i (m + 1)/2 at its m-th"), run.privacyStatement());
        assertEquals(3, run.epsilon(), 1e-6, "calibrated to its own count, the most active agent spends the target");
        double rho = run.privacy().rho(run.activations());
        assertEquals(org.dpdl4j.privacy.accounting.GaussianPrivacyCurve.epsilon(Math.sqrt(2 * rho), 1e-5), run.epsilon(), 1e-9);
        // the paper's pricing of the same run's noise would claim far less
        RelayRecal paper = (RelayRecal) dpRecal(false).paperAccounting(true).build();
        assertTrue(run.privacy().sigma(0) > 5 * paper.privacy().sigma(0), run.privacy().sigma(0) + " against " + paper.privacy().sigma(0));
    }

    @Test
    void whatTheProofDoesNotCoverIsPricedThePapersWayAndMarked() {
        var leastSquares = LassoInstances.leastSquares(20, 2, false).getLayerWiseConfigurations();
        for (var c : List.of(new Object[] {dpRecal(false).paperAccounting(true), "--paper-accounting", leastSquares},
                new Object[] {dpRecal(false).stepScale(2.5), "exceeds 1/L_i", leastSquares},
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
        RelayRecal edge = (RelayRecal) dpRecal(false).stepScale(2).build();
        assertEquals(PublicationSensitivity.STATE_DRIFT, edge.privacy().growth());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PrimalDualRunBuilder.of(PrimalDualAlgorithm.DP_PG_EXTRA)
                .model(LassoInstances.leastSquares(20, 2, false)).problem(CompositeProblem.of(DATA, SmoothLoss.LEAST_SQUARES,
                        Penalty.l1(1.0), false)).graph(Topologies.ring(6)).iterations(10).clip(2).noiseKind(NoiseKind.SEEDED)
                .target(3, 1e-5).paperAccounting(true).build());
        assertTrue(e.getMessage().contains("option of dp-recal only"), e.getMessage());
    }

    @Test
    void aCheckpointResumesOnlyUnderThePricingItWasSavedWith(@TempDir Path dir) {
        Path file = dir.resolve("paper.ckpt");
        try (CompositeRun paper = dpRecal(false).paperAccounting(true).build()) {
            paper.run(30);
            RunCheckpoint.save(paper, file);
        }
        try (CompositeRun drift = dpRecal(false).settings(org.dpdl4j.runtime.options.RunSettings.empty()
                .with(PrimalDualOptions.PAPER_ACCOUNTING, true)).build()) {
            // the settings claim the paper's pricing but the run prices with the drift: the saved state says otherwise
            RuntimeException refused = assertThrows(RuntimeException.class,
                    () -> RunCheckpoint.resume(drift, RunCheckpoint.read(file), ResumePolicy.allowingChanges()));
            assertTrue(refused.getMessage().contains("priced its publications the paper's way"), refused.getMessage());
        }
        try (CompositeRun same = dpRecal(false).paperAccounting(true).build()) {
            RunCheckpoint.resume(same, RunCheckpoint.read(file), ResumePolicy.strict());
            assertEquals(30, same.completedSteps());
        }
    }
}
