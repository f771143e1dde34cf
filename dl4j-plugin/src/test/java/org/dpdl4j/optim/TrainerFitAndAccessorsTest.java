package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** fit(epochs) and fit() run whole epochs and the plan; a graph trainer's accessors give the graph. */
class TrainerFitAndAccessorsTest {
    private static final int N = 100;
    private static final INDArray X = TestNetworks.features(DataType.FLOAT, 1, N, 6);
    private static final INDArray Y = TestNetworks.oneHot(DataType.FLOAT, 2, N, 2);

    private static PrivateTrainer.Builder seeded(PrivateTrainer.Builder b) {
        return b.data(X, Y).noise(SeededNoiseSource.forKey(new NoiseKey(1, "fit", 0, 0))).sampling(new SplittableRandom(1));
    }

    @Test
    void fitRunsWholeEpochsAndThePlannedOnes() {
        DpSgdConfig config = DpSgdConfig.builder().clipNorm(1).targetEpsilon(2).delta(1e-3).batchSize(20).epochs(2.5).build();
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 3, Activation.TANH, 6, 4, 2);
        try (PrivateTrainer trainer = seeded(PrivateTrainer.builder(net, config)).build()) {
            trainer.fit(1);
            assertEquals(5, trainer.steps());
            assertEquals(1, net.getEpochCount());
            trainer.fit();   // the rest of 2.5 planned epochs: one whole epoch and half of one
            assertEquals(13, trainer.steps());
            assertEquals(trainer.plannedSteps(), trainer.steps());
            assertEquals(3, net.getEpochCount());
            assertTrue(trainer.epsilon() <= 2.0 + 1e-9);
        }
    }

    @Test
    void aGraphTrainerGivesItsGraph() {
        ComputationGraph graph = new ComputationGraph(new NeuralNetConfiguration.Builder().seed(1).updater(new Sgd(0.1))
                .graphBuilder().addInputs("in")
                .addLayer("hidden", new DenseLayer.Builder().nIn(6).nOut(4).activation(Activation.TANH).build(), "in")
                .addLayer("out", new OutputLayer.Builder(LossFunction.MCXENT).nIn(4).nOut(2).activation(Activation.SOFTMAX)
                        .build(), "hidden")
                .setOutputs("out").build());
        graph.init();
        DpSgdConfig config = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-3).batchSize(20).epochs(1).build();
        try (PrivateTrainer trainer = seeded(PrivateTrainer.builder(graph, config)).build()) {
            trainer.fit(1);
            assertSame(graph, trainer.graph());
            assertSame(graph, trainer.trainedModel());
            String m = assertThrows(IllegalStateException.class, trainer::model).getMessage();
            assertTrue(m.contains("use graph()"), m);
        }
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 3, Activation.TANH, 6, 4, 2);
        try (PrivateTrainer trainer = seeded(PrivateTrainer.builder(net, config)).build()) {
            assertSame(net, trainer.trainedModel());
            assertTrue(assertThrows(IllegalStateException.class, trainer::graph).getMessage().contains("use network()"));
        }
    }

    @Test
    void dpSgdWarnsWhenItsNoiseDwarfsTheAveragedGradient() {
        DpSgdConfig small = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(2).delta(1e-3).batchSize(2).epochs(1).build();
        DpSgdConfig usual = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(2).delta(1e-3).batchSize(50).epochs(1).build();
        MultiLayerNetwork wide = TestNetworks.mlp(DataType.FLOAT, 3, Activation.TANH, 6, 64, 2);
        try (LogCapture log = new LogCapture(org.dpdl4j.runtime.AbstractTrainingRun.class, ch.qos.logback.classic.Level.WARN)) {
            try (PrivateTrainer usualRun = seeded(PrivateTrainer.builder(wide.clone(), usual)).build()) {
                usualRun.step();
            }
            assertTrue(log.messages().isEmpty(), log.messages().toString());
            try (PrivateTrainer smallRun = seeded(PrivateTrainer.builder(wide, small)).build()) {
                smallRun.step();
            }
            assertTrue(log.contains("The noise dwarfs the signal") && log.contains("each of 578 parameters")
                    && log.contains("an expected 2 clipped per-example gradients"), log.messages().toString());
        }
    }
}
