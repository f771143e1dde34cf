package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.deeplearning4j.core.storage.StatsStorage;
import org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.InvocationType;
import org.deeplearning4j.optimize.listeners.CheckpointListener;
import org.deeplearning4j.optimize.listeners.EvaluativeListener;
import org.deeplearning4j.optimize.listeners.ScoreIterationListener;
import org.deeplearning4j.ui.model.stats.StatsListener;
import org.deeplearning4j.ui.model.storage.FileStatsStorage;
import org.deeplearning4j.ui.model.storage.InMemoryStatsStorage;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.evaluation.classification.Evaluation;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/**
 * DL4J's own listeners, the training UI's StatsListener included, through private training of an MLP and a CNN: each
 * sees the private steps as it sees {@code fit}'s (the network's input, labels and score set to the step's batch).
 */
class Dl4jListenersInPrivateTrainingTest {
    private static final int N = 96;

    private static MultiLayerNetwork mlp() {
        return TestNetworks.mlp(DataType.FLOAT, 3, Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, new Sgd(0.1),
                64, 16, 4);
    }

    /** A small LeNet on 8 x 8 images given as flat rows. */
    private static MultiLayerNetwork cnn() {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(3).dataType(DataType.FLOAT)
                .updater(new Sgd(0.1)).list()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(4).activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(2, 2).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(4).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(8, 8, 1)).build());
        net.init();
        return net;
    }

    private static DataSet data() {
        return new DataSet(TestNetworks.features(DataType.FLOAT, 5, N, 64), TestNetworks.oneHot(DataType.FLOAT, 6, N, 4));
    }

    private static PrivateTrainer trainer(MultiLayerNetwork net) {
        DpSgdConfig config = DpSgdConfig.builder().clipNorm(1.0).noiseMultiplier(1.0).delta(1e-3).batchSize(32).epochs(2)
                .build();
        return PrivateTrainer.builder(net, config).data(data().getFeatures(), data().getLabels())
                .noise(SeededNoiseSource.forKey(new NoiseKey(1, "listeners", 0, 0))).sampling(new SplittableRandom(2)).build();
    }

    @Test
    void theTrainingUiRecordsEveryPrivateStepOfAnMlp() {
        theTrainingUiRecordsEveryPrivateStep(mlp());
    }

    @Test
    void theTrainingUiRecordsEveryPrivateStepOfACnn() {
        theTrainingUiRecordsEveryPrivateStep(cnn());
    }

    private static void theTrainingUiRecordsEveryPrivateStep(MultiLayerNetwork net) {
        StatsStorage storage = new InMemoryStatsStorage();
        net.setListeners(new StatsListener(storage, 1));
        try (PrivateTrainer trainer = trainer(net)) {
            trainer.fit(2);
            String session = storage.listSessionIDs().get(0);
            assertEquals(trainer.steps(), storage.getNumUpdateRecordsFor(session), "one UI record per private step");
        }
    }

    @Test
    void aFileStatsStorageKeepsThePrivateStepsForTheUi(@TempDir Path dir) throws Exception {
        File file = dir.resolve("ui-stats.dl4j").toFile();
        StatsStorage storage = new FileStatsStorage(file);
        MultiLayerNetwork net = mlp();
        net.setListeners(new StatsListener(storage, 1));
        try (PrivateTrainer trainer = trainer(net)) {
            trainer.fitEpoch();
            assertEquals(trainer.steps(), storage.getNumUpdateRecordsFor(storage.listSessionIDs().get(0)));
        } finally {
            storage.close();
        }
        assertTrue(file.length() > 0);
    }

    @Test
    void scoreEvaluationAndCheckpointListenersWorkOnAnMlp(@TempDir Path dir) {
        scoreEvaluationAndCheckpointListenersWork(mlp(), dir);
    }

    @Test
    void scoreEvaluationAndCheckpointListenersWorkOnACnn(@TempDir Path dir) {
        scoreEvaluationAndCheckpointListenersWork(cnn(), dir);
    }

    private static void scoreEvaluationAndCheckpointListenersWork(MultiLayerNetwork net, Path dir) {
        List<Double> accuracies = new ArrayList<>();
        EvaluativeListener evaluative = new EvaluativeListener(new ListDataSetIterator<>(data().asList(), 32), 1,
                InvocationType.EPOCH_END, new Evaluation());
        evaluative.setCallback((listener, model, count, evaluations) -> accuracies.add(((Evaluation) evaluations[0]).accuracy()));
        CheckpointListener checkpoints = new CheckpointListener.Builder(dir.toFile()).saveEveryNIterations(2).keepAll().build();
        net.setListeners(new ScoreIterationListener(1), evaluative, checkpoints);
        try (LogCapture scores = new LogCapture(ScoreIterationListener.class, Level.INFO);
             LogCapture warnings = new LogCapture(CheckpointListenerWarning.class, Level.WARN);
             PrivateTrainer trainer = trainer(net)) {
            trainer.fit(2);
            long steps = trainer.steps();
            assertEquals(steps, scores.messages().stream().filter(m -> m.startsWith("Score at iteration")).count(),
                    scores.messages().toString());
            assertTrue(scores.messages().stream().noneMatch(m -> m.contains("NaN") && !m.contains("iteration 0")),
                    "every step with examples has a score: " + scores.messages());
            assertEquals(2, accuracies.size(), "one evaluation per epoch");
            assertEquals((steps - 1) / 2, checkpoints.availableCheckpoints().size(), "iterations 2, 4, ... as with fit");
            Model saved = CheckpointListener.loadCheckpointMLN(dir.toFile(), checkpoints.lastCheckpoint());
            assertEquals(net.numParams(), saved.numParams());
            assertEquals(1, warnings.messages().size(), "one warning per CheckpointListener: " + warnings.messages());
            assertTrue(warnings.contains("without its privacy ledger") && warnings.contains("RunCheckpoint.save"));
        }
    }

    @Test
    void theListenersSeeTheStepsBatchAsTheNetworksInputAndLabels() {
        MultiLayerNetwork net = mlp();
        List<long[]> seen = new ArrayList<>();
        net.setListeners(new org.deeplearning4j.optimize.api.BaseTrainingListener() {
            @Override
            public void iterationDone(Model model, int iteration, int epoch) {
                MultiLayerNetwork m = (MultiLayerNetwork) model;
                seen.add(new long[]{m.getInput().size(0), m.getLabels().size(0), m.batchSize()});
            }
        });
        try (PrivateTrainer trainer = trainer(net)) {
            for (int i = 0; i < 5; i++) {
                trainer.step();
                long b = trainer.lastBatch() == null ? 0 : trainer.lastBatch().norms().length();
                assertEquals(List.of(b, b, b), List.of(seen.get(i)[0], seen.get(i)[1], seen.get(i)[2]));
            }
            assertEquals(null, net.getInput(), "the batch is let go after the step");
        }
    }
}
