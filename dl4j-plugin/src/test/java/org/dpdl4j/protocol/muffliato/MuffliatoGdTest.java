package org.dpdl4j.protocol.muffliato;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.federated.FederatedFixtures;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.RunAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.ndarray.INDArray;

class MuffliatoGdTest {
    /** A ring of 12 with T = 2: each observer sees the 4 nodes within 2 hops in full and the others not at all. */
    private static final int NODES = 12;

    private static List<NodeData> clients() {
        return FederatedFixtures.softmaxClients(NODES, 5, 4, 3, 7);
    }

    private static MuffliatoRunBuilder base(MultiLayerNetwork net) {
        return MuffliatoGd.builder().model(net).graph(Topologies.ring(NODES)).nodeData(clients(), false).rounds(8).gossipSteps(2)
                .stepSize(0.3).clip(0.5).noiseKind(NoiseKind.SEEDED).seed(3);
    }

    @Test
    void withoutNoiseOnTheCompleteGraphItIsGradientDescentOnTheAverageLoss() {
        MultiLayerNetwork net = FederatedFixtures.softmax(4, 3, 5);
        List<NodeData> data = clients();
        INDArray theta = net.params().dup().reshape(net.numParams());
        try (MuffliatoGd run = MuffliatoGd.builder().model(net).graph(Topologies.complete(NODES)).nodeData(data, false).rounds(4)
                .gossipSteps(1).scheme(GossipScheme.CHEBYSHEV).stepSize(0.4).clip(1e9).sigma(0.0).noiseKind(NoiseKind.SEEDED).build()) {
            for (int r = 0; r < 4; r++) {
                INDArray g = theta.mul(0);
                for (NodeData d : data) {
                    g.addi(FederatedFixtures.meanGradient(net, theta, d.features(), d.labels()));
                }
                theta = theta.sub(g.divi(NODES).muli(0.4));
                run.step();
                assertArrayEquals(theta.toDoubleVector(), run.parameters().toDoubleVector(), 1e-10, "round " + (r + 1));
                INDArray nodes = run.partyParameters().orElseThrow();
                assertEquals(NODES, nodes.size(0));
                assertTrue(nodes.subRowVector(nodes.mean(0)).amaxNumber().doubleValue() < 1e-10, "exact averaging: all nodes agree");
            }
        }
    }

    @Test
    void theLedgerChargesLocalDpAndTheStatementGivesBothNumbers() {
        try (MuffliatoGd run = base(FederatedFixtures.softmax(4, 3, 5)).sigma(2.0).delta(1e-5).build()) {
            run.runToEnd();
            MuffliatoPrivacy p = run.privacy();
            assertEquals(p.localEpsilon(), run.epsilon(), 1e-9 * p.localEpsilon());
            PairwiseSummary s = p.pairwise();
            assertTrue(s.max() <= s.local() * (1 + 1e-12) && s.mean() < s.max(), s.describe());
            assertEquals(s.local(), s.max(), 1e-12, "on a ring the nodes within T hops are seen in full");
            assertEquals(0.0, s.median(), 0.0, "7 of the 11 other nodes are farther than T = 2 hops");
            String text = run.privacyStatement();
            assertTrue(text.contains("local DP (the guarantee") && text.contains("pairwise network DP") && text.contains("median"), text);
            assertTrue(Double.isFinite(run.lastLoss()));
        }
    }

    @Test
    void aRunResumedWithMoreNoiseStatesWhatItsLedgerSpent(@TempDir java.nio.file.Path dir) {
        java.nio.file.Path file = dir.resolve("muffliato.ckpt");
        try (MuffliatoGd first = base(FederatedFixtures.softmax(4, 3, 5)).sigma(1.0).delta(1e-5).build()) {
            for (int r = 0; r < 4; r++) {
                first.step();
            }
            org.dpdl4j.runtime.RunCheckpoint.save(first, file);
        }
        try (MuffliatoGd strict = base(FederatedFixtures.softmax(4, 3, 5)).sigma(2.0).delta(1e-5).build()) {
            // a run built from Java records its settings too, so the change of noise is seen, not resumed unnoticed
            String refused = refusedResume(strict, file, org.dpdl4j.runtime.ResumePolicy.strict());
            assertTrue(refused.contains("noise-multiplier"), refused);
        }
        try (MuffliatoGd resumed = base(FederatedFixtures.softmax(4, 3, 5)).sigma(2.0).delta(1e-5).build()) {
            org.dpdl4j.runtime.RunCheckpoint.resume(resumed, org.dpdl4j.runtime.RunCheckpoint.read(file),
                    org.dpdl4j.runtime.ResumePolicy.allowingChanges());
            resumed.runToEnd();
            double spent = resumed.epsilon();
            assertTrue(spent > resumed.privacy().localEpsilon(), "4 rounds at sigma 1 and 4 at sigma 2 spend more than 8 at sigma 2");
            String text = resumed.privacyStatement();
            // The guarantee line is the ledger's, rounded up, not 8 rounds at the current sigma (which under-reported).
            assertTrue(text.contains("epsilon = " + org.dpdl4j.privacy.ledger.EpsilonFormat.upward(spent) + " at delta"), text);
            assertTrue(!text.contains("epsilon = " + org.dpdl4j.privacy.ledger.EpsilonFormat.upward(resumed.privacy().localEpsilon())
                    + " at delta"), text);
            assertTrue(text.contains("The run was resumed under changed settings: these pairwise figures are those"), text);
        }
    }

    /** A checkpoint saved before a run built from Java recorded its settings is refused, saying why, not resumed unchecked. */
    @Test
    void aCheckpointThatRecordsNoSettingsIsRefusedWithTheReason(@TempDir java.nio.file.Path dir) {
        java.nio.file.Path file = dir.resolve("old.ckpt");
        try (MuffliatoGd old = base(FederatedFixtures.softmax(4, 3, 5)).sigma(1.0).delta(1e-5).spec()
                .create(FederatedFixtures.softmax(4, 3, 5), org.dpdl4j.runtime.options.RunSettings.empty())) {
            old.step();
            org.dpdl4j.runtime.RunCheckpoint.save(old, file);
        }
        try (MuffliatoGd resumed = base(FederatedFixtures.softmax(4, 3, 5)).sigma(1.0).delta(1e-5).build()) {
            String refused = refusedResume(resumed, file, org.dpdl4j.runtime.ResumePolicy.allowingChanges());
            assertTrue(refused.contains("records no settings"), refused);
        }
    }

    /** The message of the refusal to resume {@code run} from {@code file} under {@code policy}. */
    private static String refusedResume(MuffliatoGd run, java.nio.file.Path file, org.dpdl4j.runtime.ResumePolicy policy) {
        return org.junit.jupiter.api.Assertions.assertThrows(org.dpdl4j.runtime.CheckpointException.class,
                () -> org.dpdl4j.runtime.RunCheckpoint.resume(run, org.dpdl4j.runtime.RunCheckpoint.read(file), policy))
                .getMessage();
    }

    @Test
    void aPairwiseTargetNeedsLessNoiseThanTheSameLocalTarget() {
        double local;
        try (MuffliatoGd run = base(FederatedFixtures.softmax(4, 3, 5)).target(2.0, 1e-5).build()) {
            local = run.config().sigma();
            assertTrue(run.privacy().localEpsilon() <= 2.0 && run.privacy().localEpsilon() > 1.99);
        }
        try (MuffliatoGd run = base(FederatedFixtures.softmax(4, 3, 5)).target(2.0, 1e-5)
                .calibrateTo(MuffliatoRunBuilder.CalibrationTarget.PAIRWISE_MEAN).build()) {
            PairwiseSummary s = run.privacy().pairwise();
            assertTrue(s.mean() <= 2.0 && s.mean() > 1.99, s.describe());
            assertTrue(run.config().sigma() < local, run.config().sigma() + " vs local-DP calibration " + local);
            run.runToEnd(); // the ledger's local DP exceeds 2 here, and must not stop the run: 2 bounds the pairwise mean
            assertTrue(run.epsilon() > 2.0);
        }
    }

    @Test
    void aResumedRunEndsAsAnUninterruptedOne(@TempDir Path dir) {
        RunAssertions.assertResumeEqualsUninterrupted(() -> base(FederatedFixtures.softmax(4, 3, 5)).sigma(1.0).build(), 3, 8,
                dir.resolve("run.ckpt"));
    }

    @Test
    void badSettingsAreRefusedWithTheFix() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> base(FederatedFixtures.softmax(4, 3, 5)).clip(Double.POSITIVE_INFINITY).sigma(1.0).build());
        assertTrue(e.getMessage().contains("clip"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> base(FederatedFixtures.softmax(4, 3, 5)).graph(Topologies.ring(5)).sigma(1.0).build());
        assertTrue(e.getMessage().contains("5 nodes"), e.getMessage());
    }
}
