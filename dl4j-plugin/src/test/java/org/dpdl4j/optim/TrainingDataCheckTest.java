package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.util.SplittableRandom;
import org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/** Training data that does not fit the network is refused when the trainer is built, with the fix. */
class TrainingDataCheckTest {
    private static final int N = 68;
    private static final DpSgdConfig CONFIG = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-3).batchSize(16)
            .epochs(1).build();

    private static MultiLayerNetwork mlp() {
        return TestNetworks.mlp(DataType.FLOAT, 1, Activation.TANH, 20, 8, 2);
    }

    private static PrivateTrainer build(org.deeplearning4j.nn.api.Model net, INDArray x, INDArray y) {
        PrivateTrainer.Builder b = net instanceof ComputationGraph g ? PrivateTrainer.builder(g, CONFIG)
                : PrivateTrainer.builder((MultiLayerNetwork) net, CONFIG);
        return b.data(x, y).noise(SeededNoiseSource.forKey(new NoiseKey(1, "data", 0, 0))).sampling(new SplittableRandom(5))
                .build();
    }

    private static String refusal(Executable build) {
        return assertThrows(IllegalArgumentException.class, build).getMessage();
    }

    private static void assertContains(String text, String... parts) {
        for (String p : parts) {
            assertTrue(text.contains(p), "\"" + p + "\" is missing from: " + text);
        }
    }

    /** Class indices 0 and 1 in one column. */
    private static INDArray indexLabels() {
        INDArray y = Nd4j.zeros(DataType.FLOAT, N, 1);
        for (int i = 0; i < N; i += 2) {
            y.putScalar(i, 0, 1);
        }
        return y;
    }

    @Test
    void indexLabelsAreRefusedWithTheOneHotFix() {
        INDArray x = TestNetworks.features(DataType.FLOAT, 2, N, 20);
        assertContains(refusal(() -> build(mlp(), x, indexLabels())), "the labels have 1 column but layer 1 (OutputLayer)"
                + " has 2 outputs", "look like class indices 0..1", "one-hot encode them to [68, 2]", "FeatureUtil.toOutcomeMatrix");
        assertContains(refusal(() -> build(mlp(), x, indexLabels().reshape(N))), "the labels are a vector of 68 values",
                "one-hot encode");
        assertContains(refusal(() -> build(mlp(), x, TestNetworks.oneHot(DataType.FLOAT, 3, N, 3))),
                "the labels have 3 columns but layer 1 (OutputLayer) has 2 outputs");
        assertContains(refusal(() -> build(mlp(), x, TestNetworks.oneHot(DataType.FLOAT, 3, N - 1, 2))),
                "the features hold 68 examples (rows) but the labels hold 67");
    }

    @Test
    void featuresOfTheWrongWidthAreRefusedNamingTheLayer() {
        assertContains(refusal(() -> build(mlp(), TestNetworks.features(DataType.FLOAT, 2, N, 12),
                TestNetworks.oneHot(DataType.FLOAT, 3, N, 2))),
                "the features have 12 values per example but layer 0 (DenseLayer) takes 20");
        assertContains(refusal(() -> build(mlp(), Nd4j.rand(DataType.FLOAT, N, 2, 5, 3), TestNetworks.oneHot(DataType.FLOAT, 3, N, 2))),
                "the images have 2 x 5 x 3 = 30 values each", "layer 0 (DenseLayer) takes 20");
        assertContains(refusal(() -> build(mlp(), Nd4j.rand(DataType.FLOAT, N, 4, 5), TestNetworks.oneHot(DataType.FLOAT, 3, N, 2))),
                "the features have shape [68, 4, 5]", "sequences and other ranks are not supported");
    }

    /** A LeNet on 8 x 8 images, taking them as flat rows (convolutionalFlat) or as rank-4 arrays (convolutional). */
    private static MultiLayerNetwork cnn(InputType input) {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(3).dataType(DataType.FLOAT)
                .updater(new Sgd(0.1)).list()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(4).activation(Activation.TANH).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(2, 2).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(input).build());
        net.init();
        return net;
    }

    @Test
    void nchwImagesTrainANetworkThatTakesFlatRowsAsTheirRowsDo() {
        INDArray images = Nd4j.rand(DataType.FLOAT, N, 1, 8, 8);
        INDArray y = TestNetworks.oneHot(DataType.FLOAT, 3, N, 3);
        try (PrivateTrainer fromImages = build(cnn(InputType.convolutionalFlat(8, 8, 1)), images, y);
             PrivateTrainer fromRows = build(cnn(InputType.convolutionalFlat(8, 8, 1)), images.reshape(N, 64), y)) {
            fromImages.run(4);
            fromRows.run(4);
            assertArrayEquals(fromRows.parameters().toDoubleVector(), fromImages.parameters().toDoubleVector(), 0.0);
        }
        assertContains(refusal(() -> build(cnn(InputType.convolutionalFlat(8, 8, 1)), images.permute(0, 2, 3, 1).dup(), y)),
                "channels last (NHWC)", "features.permute(0, 3, 1, 2)");
        assertContains(refusal(() -> build(cnn(InputType.convolutionalFlat(8, 8, 1)), Nd4j.rand(DataType.FLOAT, N, 1, 6, 6), y)),
                "the images are [1 channels, 6 x 6]", "takes [1 channels, 8 x 8]");
    }

    @Test
    void aNetworkThatTakesImageArraysGetsEachBatchAsImages() {
        INDArray images = Nd4j.rand(DataType.FLOAT, N, 1, 8, 8);
        INDArray y = TestNetworks.oneHot(DataType.FLOAT, 3, N, 3);
        MultiLayerNetwork arrays = cnn(InputType.convolutional(8, 8, 1));
        MultiLayerNetwork rows = cnn(InputType.convolutionalFlat(8, 8, 1));
        rows.setParams(arrays.params().dup());
        try (PrivateTrainer fromArrays = build(arrays, images, y); PrivateTrainer fromRows = build(rows, images, y)) {
            fromArrays.run(4);
            fromRows.run(4);
            assertArrayEquals(fromRows.parameters().toDoubleVector(), fromArrays.parameters().toDoubleVector(), 1e-6);
        }
        assertContains(refusal(() -> build(cnn(InputType.convolutional(8, 8, 1)), images.reshape(N, 64), y)),
                "takes images [batch, channels = 1, height, width]", "rank-4 NCHW array",
                "setInputType(InputType.convolutionalFlat(height, width, channels))");
    }

    @Test
    void aGraphsDataIsCheckedAgainstItsInputAndOutputVertices() {
        ComputationGraph graph = new ComputationGraph(new NeuralNetConfiguration.Builder().seed(1).updater(new Sgd(0.1))
                .graphBuilder().addInputs("in")
                .addLayer("hidden", new DenseLayer.Builder().nIn(20).nOut(8).activation(Activation.TANH).build(), "in")
                .addLayer("out", new OutputLayer.Builder(LossFunction.MCXENT).nIn(8).nOut(2).activation(Activation.SOFTMAX)
                        .build(), "hidden")
                .setOutputs("out").build());
        graph.init();
        INDArray x = TestNetworks.features(DataType.FLOAT, 2, N, 20);
        assertContains(refusal(() -> build(graph, x, indexLabels())), "vertex \"out\" (OutputLayer) has 2 outputs",
                "one-hot encode");
        assertContains(refusal(() -> build(graph, x.get(org.nd4j.linalg.indexing.NDArrayIndex.all(),
                org.nd4j.linalg.indexing.NDArrayIndex.interval(0, 10)), TestNetworks.oneHot(DataType.FLOAT, 3, N, 2))),
                "vertex \"hidden\" (DenseLayer) takes 20");
    }

    @Test
    void deltaIsCheckedAgainstTheNumberOfExamples() {
        assertContains(assertThrows(IllegalArgumentException.class, () -> DpSgdConfig.builder().clipNorm(1).targetEpsilon(3)
                .delta(1.5).batchSize(16).epochs(1).build()).getMessage(), "delta must lie in (0, 1)");
        DpSgdConfig large = DpSgdConfig.builder().clipNorm(1).targetEpsilon(3).delta(0.5).batchSize(16).epochs(1).build();
        try (LogCapture log = new LogCapture(PrivateTrainer.class, Level.WARN);
             PrivateTrainer t = PrivateTrainer.builder(mlp(), large).data(TestNetworks.features(DataType.FLOAT, 2, N, 20),
                     TestNetworks.oneHot(DataType.FLOAT, 3, N, 2)).build()) {
            assertTrue(log.contains("delta 0.5 is at least 1/N = 1/68") && log.contains("in the clear"), log.messages().toString());
        }
    }

    @Test
    void readingAnIteratorStatesWhatItKeepsInMemory() {
        DataSet d = new DataSet(TestNetworks.features(DataType.FLOAT, 2, N, 20), TestNetworks.oneHot(DataType.FLOAT, 3, N, 2));
        try (LogCapture log = new LogCapture(PrivateTrainer.class, Level.INFO);
             PrivateTrainer t = PrivateTrainer.builder(mlp(), CONFIG).data(new ListDataSetIterator<>(d.asList(), 10)).build()) {
            assertTrue(log.contains("68 examples read from the iterator into memory: 5.8 KiB (features [68, 20], labels [68, 2],"
                    + " FLOAT)"), log.messages().toString());
            assertTrue(t.dataDescription().startsWith("68 examples, 5.8 KiB in memory"), t.dataDescription());
        }
    }
}
