package org.dpdl4j.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedProtocol;
import org.dpdl4j.protocol.decentralized.DecentralizedRunSpec;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.federated.CollusionAnalysis;
import org.dpdl4j.protocol.federated.FedAvgProtocol;
import org.dpdl4j.protocol.federated.FedAvgRunSpec;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * A run has one description ({@link DecentralizedRunSpec}, {@link FedAvgRunSpec}): the command line's settings and the
 * Java builder both make one, and the same two methods price and build it, so the two ways of asking for a run give
 * the same ledger and, seeded, the same models.
 */
class RunSpecTest {
    private static final String DECOR = "nodes 6 topology ring rounds 5 batch-size 3 lr 0.1 unit example clip 1 epsilon 3"
            + " seed 7 noise seeded";

    @Test
    void theSettingsAndTheBuilderDescribeTheSameRun() {
        DecentralizedProtocol protocol = (DecentralizedProtocol) ProtocolRegistry.standard().get("decor");
        RunSettings s = PlannedLedgerTest.settings(protocol, DECOR);
        RunInputs inputs = PlannedLedgerTest.inputs(new PlannedLedgerTest.SoftmaxRegression());
        DecentralizedRunSpec fromSettings = protocol.config(s, inputs);
        DecentralizedRunSpec fromJava = DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR)
                .graph(Topologies.ring(6)).split(inputs.train(), inputs.splits().apply("dirichlet:10"))
                .unit(ProtectedUnit.EXAMPLE).clip(1).batchSize(3).learningRate(new LearningRate.Constant(0.1)).rounds(5)
                .target(3, 1e-5).seed(7).noiseKind(NoiseKind.SEEDED).spec();

        PrivacyLedger priced = protocol.plannedLedger(fromSettings, inputs).orElseThrow().ledger();
        assertEquals(priced.entries(), fromJava.plannedLedger(false).orElseThrow().ledger().entries());
        assertEquals(priced.entries(), protocol.plannedLedger(s, inputs).orElseThrow().ledger().entries(),
                "pricing the settings is pricing their description");

        try (TrainingRun viaProtocol = protocol.create(fromSettings, inputs, s);
             DecentralizedTrainer viaJava = fromJava.create(inputs.model().build(new Sgd(0.1), 0.0, 7), null, null)) {
            viaProtocol.runToEnd();
            viaJava.runToEnd();
            assertEquals(viaJava.parameters(), viaProtocol.parameters(), "seeded, one description trains one model");
            assertEquals(priced.entries(), viaProtocol.ledger().orElseThrow().ledger().entries());
            assertEquals(s, viaProtocol.settings(), "a run made from settings records them");
            RunSettings back = viaJava.settings();
            assertEquals(3.0, back.get(RunOptions.EPSILON).orElseThrow());
            assertEquals(7L, back.get(RunOptions.SEED).orElseThrow());
            assertEquals(5L, back.get(RunOptions.ROUNDS).orElseThrow());
            assertEquals(1.0, back.get(RunOptions.CLIP).orElseThrow());
        }
    }

    @Test
    void aDescriptionIsBuiltOnlyByItsOwnAlgorithm() {
        RunInputs inputs = PlannedLedgerTest.inputs(new PlannedLedgerTest.SoftmaxRegression());
        DecentralizedProtocol decor = (DecentralizedProtocol) ProtocolRegistry.standard().get("decor");
        DecentralizedProtocol ldp = (DecentralizedProtocol) ProtocolRegistry.standard().get("ldp");
        DecentralizedRunSpec spec = decor.config(PlannedLedgerTest.settings(decor, DECOR), inputs);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ldp.create(spec, inputs, null));
        assertTrue(e.getMessage().contains("give it to decor"), e.getMessage());
    }

    @Test
    void gopaFromSettingsAndFromJavaIsOneRun() {
        FedAvgProtocol protocol = (FedAvgProtocol) ProtocolRegistry.standard().get("gopa");
        RunSettings s = PlannedLedgerTest.settings(protocol, "machines 6 rounds 3 lr 0.1 clip 1 epsilon 4 gopa-k 2 seed 7"
                + " noise seeded");
        RunInputs inputs = PlannedLedgerTest.inputs(new PlannedLedgerTest.SoftmaxRegression());
        FedAvgRunSpec fromSettings = protocol.config(s, inputs);
        FedAvgRunSpec fromJava = FedAvgTrainer.builder().variant(FedAvgVariant.GOPA)
                .split(inputs.train(), inputs.splits().apply("iid"), 6).rounds(3)
                .localRate(new LearningRate.Constant(0.1)).clip(1).gopaK(2).colluders(0, CollusionAnalysis.worstCase())
                .target(4, 1e-5).seed(7).noiseKind(NoiseKind.SEEDED).spec();

        PrivacyLedger priced = protocol.plannedLedger(fromSettings, inputs).orElseThrow().ledger();
        assertEquals(priced.entries(), fromJava.plannedLedger().orElseThrow().ledger().entries());
        try (TrainingRun viaProtocol = protocol.create(fromSettings, inputs, s);
             FedAvgTrainer viaJava = fromJava.create(inputs.model().build(new Sgd(0.1), 0.0, 7), null)) {
            viaProtocol.runToEnd();
            viaJava.runToEnd();
            assertEquals(viaJava.parameters(), viaProtocol.parameters(), "seeded, one description trains one model");
            assertEquals(priced.entries(), viaProtocol.ledger().orElseThrow().ledger().entries());
            assertEquals(6, viaJava.gopaAccountant().graph().vertexCount(), "the run keeps GOPA's accountant");
        }
    }
}
