package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.util.SplittableRandom;
import org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator;
import org.deeplearning4j.earlystopping.EarlyStoppingConfiguration;
import org.deeplearning4j.earlystopping.EarlyStoppingResult;
import org.deeplearning4j.earlystopping.saver.InMemoryModelSaver;
import org.deeplearning4j.earlystopping.scorecalc.DataSetLossCalculator;
import org.deeplearning4j.earlystopping.termination.MaxEpochsTerminationCondition;
import org.deeplearning4j.earlystopping.trainer.EarlyStoppingTrainer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.listeners.ScoreIterationListener;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** A network a PrivateTrainer owns cannot be trained by DL4J's own {@code fit}, which would not be private. */
class NonPrivateTrainingRefusedTest {
    private static final DataSet DATA = new DataSet(TestNetworks.features(DataType.FLOAT, 1, 64, 6),
            TestNetworks.oneHot(DataType.FLOAT, 2, 64, 3));

    private static MultiLayerNetwork net() {
        // Adam keeps a state that a refused fit must not touch either.
        return TestNetworks.mlp(DataType.FLOAT, 4, Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, new Adam(0.01),
                6, 8, 3);
    }

    private static PrivateTrainer trainer(MultiLayerNetwork net) {
        return PrivateTrainer.builder(net, DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-3).batchSize(16)
                        .epochs(1).build()).data(DATA.getFeatures(), DATA.getLabels())
                .noise(SeededNoiseSource.forKey(new NoiseKey(1, "guard", 0, 0))).sampling(new SplittableRandom(1)).build();
    }

    @Test
    void fitIsRefusedBeforeItChangesTheParametersOrTheUpdater() {
        MultiLayerNetwork net = net();
        try (PrivateTrainer trainer = trainer(net)) {
            trainer.run(3);
            double[] params = net.params().toDoubleVector();
            double[] state = net.getUpdater().getStateViewArray().toDoubleVector();
            int iterations = net.getIterationCount();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> net.fit(DATA));
            assertTrue(e.getMessage().contains("trained by a PrivateTrainer") && e.getMessage().contains("trainer.fit(epochs)")
                    && e.getMessage().contains("PrivateEarlyStoppingTrainer"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> net.fit(new ListDataSetIterator<>(DATA.asList(), 16)));
            assertArrayEquals(params, net.params().toDoubleVector(), 0.0);
            assertArrayEquals(state, net.getUpdater().getStateViewArray().toDoubleVector(), 0.0);
            assertEquals(iterations, net.getIterationCount());
            trainer.run(1);   // the private steps go on
            assertEquals(iterations + 1, net.getIterationCount());
        }
    }

    @Test
    void dl4jsEarlyStoppingTrainerIsRefusedToo() {
        MultiLayerNetwork net = net();
        try (PrivateTrainer trainer = trainer(net)) {
            double[] params = net.params().toDoubleVector();
            EarlyStoppingConfiguration<MultiLayerNetwork> es = new EarlyStoppingConfiguration.Builder<MultiLayerNetwork>()
                    .epochTerminationConditions(new MaxEpochsTerminationCondition(2))
                    .scoreCalculator(new DataSetLossCalculator(new ListDataSetIterator<>(DATA.asList(), 16), true))
                    .modelSaver(new InMemoryModelSaver<>()).build();
            String outcome;
            try {
                EarlyStoppingResult<MultiLayerNetwork> r = new EarlyStoppingTrainer(es, net,
                        new ListDataSetIterator<>(DATA.asList(), 16)).fit();
                outcome = r.getTerminationReason() + ": " + r.getTerminationDetails();
            } catch (IllegalStateException e) {
                outcome = "Error: " + e.getMessage();
            }
            assertTrue(outcome.startsWith("Error") && outcome.contains("trained by a PrivateTrainer"), outcome);
            assertArrayEquals(params, net.params().toDoubleVector(), 0.0);
            assertEquals(0, trainer.steps());
        }
    }

    @Test
    void theGuardOutlivesReplacedListenersButNotTheTrainer() {
        MultiLayerNetwork net = net();
        PrivateTrainer trainer = trainer(net);
        net.setListeners(new ScoreIterationListener(100));   // drops the guard; the next private step puts it back
        trainer.step();
        assertThrows(IllegalStateException.class, () -> net.fit(DATA));
        assertEquals(2, net.getListeners().size(), "the caller's listener and the guard: " + net.getListeners());
        trainer.close();
        assertEquals(1, net.getListeners().size(), "closing the trainer takes the guard off");
        double[] before = net.params().toDoubleVector();
        net.fit(DATA);   // a closed trainer owns nothing: training on (public) data is the caller's call
        assertNotEquals(before[0], net.params().getDouble(0));
    }

    @Test
    void aCopyOfTheNetworkIsNotGuarded() {
        MultiLayerNetwork net = net();
        try (PrivateTrainer trainer = trainer(net)) {
            trainer.run(2);
            MultiLayerNetwork copy = net.clone();
            copy.fit(DATA);
            assertEquals(2, trainer.steps());
        }
    }

    @Test
    void stepsTakenBeforeTheTrainerAreWarnedAbout() {
        MultiLayerNetwork net = net();
        net.fit(DATA);
        try (LogCapture log = new LogCapture(PrivateTrainer.class, Level.WARN); PrivateTrainer trainer = trainer(net)) {
            assertTrue(log.contains("already taken 1 training iterations before this PrivateTrainer")
                    && log.contains("not in its ledger"), log.messages().toString());
        }
    }
}
