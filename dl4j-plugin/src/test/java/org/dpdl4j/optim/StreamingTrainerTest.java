package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.deeplearning4j.datasets.iterator.ExistingDataSetIterator;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.dpdl4j.runtime.RunAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/**
 * A trainer streaming its examples from an iterator in passes trains as the in-memory trainer does, with the same
 * ledger, holds one pass's rows at most, resumes as an uninterrupted run, and refuses what it cannot stream with the
 * fix.
 */
class StreamingTrainerTest {
    private static final int N = 400;
    private static final INDArray X = TestNetworks.features(DataType.FLOAT, 11, N, 5);
    private static final INDArray Y = X.mmul(Nd4j.createFromArray(1f, -2f, 0.5f, 1.5f, -1f).reshape(5, 1)).gt(0)
            .castTo(DataType.FLOAT);

    private static MultiLayerNetwork mlp() {
        return TestNetworks.mlp(DataType.FLOAT, 5, Activation.TANH, Activation.SIGMOID, LossFunction.XENT, new Sgd(0.5),
                5, 8, 1);
    }

    /** The examples in batches of 64 (the last one shorter): a resettable iterator. */
    private static DataSetIterator iterator() {
        return new ExistingDataSetIterator(new DataSet(X, Y).batchBy(64));
    }

    private static PrivateTrainer.Builder seeded(PrivateTrainer.Builder b) {
        return b.noise(SeededNoiseSource.forKey(new NoiseKey(1, "stream", 0, 0))).sampling(new SplittableRandom(3));
    }

    private static StreamedExamples source(PrivateTrainer trainer) {
        return (StreamedExamples) trainer.exampleSource();
    }

    @Test
    void aStreamingRunLearnsAndSpendsExactlyWhatTheInMemoryRunSpends() {
        DpSgdConfig cfg = DpSgdConfig.builder().clipNorm(1).targetEpsilon(3).delta(1e-5).batchSize(40).epochs(5).build();
        MultiLayerNetwork net = mlp();
        double before = net.score(new DataSet(X, Y));
        try (PrivateTrainer streamed = seeded(PrivateTrainer.builder(net, cfg)).streaming(iterator(), 6).build();
             PrivateTrainer held = seeded(PrivateTrainer.builder(mlp(), cfg)).data(X, Y).build()) {
            streamed.fit();
            held.fit();
            assertEquals(50, streamed.steps());
            double after = net.score(new DataSet(X, Y));
            assertTrue(after < 0.8 * before, "the loss drops: " + before + " -> " + after);
            assertEquals(held.noiseMultiplier(), streamed.noiseMultiplier(), 0.0);
            assertEquals(held.ledger().orElseThrow().ledger(), streamed.ledger().orElseThrow().ledger());
            assertEquals(held.epsilon(), streamed.epsilon(), 0.0);
            assertEquals(held.privacyStatement(), streamed.privacyStatement());
            // the same draws give the same batches, so the same training
            assertArrayEquals(held.parameters().toDoubleVector(), streamed.parameters().toDoubleVector(), 0.0);
            assertEquals(9, source(streamed).passes(), "ceil(50 / 6) passes");
            assertTrue(streamed.dataDescription().startsWith("400 examples streamed from the iterator in passes of 6 steps"
                    + " (9 passes so far)"), streamed.dataDescription());
        }
    }

    @Test
    void fixedSizeBatchesAndEmptyPoissonBatchesStreamAsInMemory() {
        DpSgdConfig fixed = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-5).batchSize(30).epochs(1)
                .sampling(SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT).build();
        DpSgdConfig tiny = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-5).batchSize(1).epochs(1).build();
        for (DpSgdConfig cfg : new DpSgdConfig[]{fixed, tiny}) {
            try (PrivateTrainer streamed = seeded(PrivateTrainer.builder(mlp(), cfg)).streaming(iterator(), 4).build();
                 PrivateTrainer held = seeded(PrivateTrainer.builder(mlp(), cfg)).data(X, Y).build()) {
                streamed.run(10);
                held.run(10);
                assertArrayEquals(held.parameters().toDoubleVector(), streamed.parameters().toDoubleVector(), 0.0);
                assertEquals(held.ledger().orElseThrow().ledger(), streamed.ledger().orElseThrow().ledger());
                assertEquals(held.privacyStatement(), streamed.privacyStatement());
            }
        }
    }

    @Test
    void theRowsHeldAtOnceAreThoseOfOnePass() {
        // q = 0.05: a pass of 5 steps draws about 100 of the 400 examples
        DpSgdConfig cfg = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-5).batchSize(20).epochs(2).build();
        String cost;
        try (LogCapture log = new LogCapture(PrivateTrainer.class, Level.INFO)) {
            seeded(PrivateTrainer.builder(mlp(), cfg)).streaming(iterator(), 5).build().close();
            cost = String.join("\n", log.messages());
        }
        assertContains(cost, "400 examples streamed from the iterator in passes of 5 steps: about 100 examples (2.3 KiB)"
                + " held at a time instead of all 400 (9.4 KiB); the planned 40 steps read the iterator 8 times, after the"
                + " one pass that counted and checked the examples");
        try (PrivateTrainer trainer = seeded(PrivateTrainer.builder(mlp(), cfg)).streaming(iterator(), 5).build()) {
            StreamedExamples source = source(trainer);
            assertEquals(0, source.heldRows(), "nothing is drawn before the first step");
            trainer.run(2);
            long held = source.heldRows();
            assertTrue(held > 0 && held <= source.largestPass(), "the pass's last 3 steps' rows: " + held);
            trainer.run(28);
            assertEquals(6, source.passes());
            assertEquals(0, source.heldRows(), "every drawn step taken");
            assertTrue(source.mostHeldRows() > 0 && source.mostHeldRows() <= source.largestPass(),
                    source.mostHeldRows() + " held at most, passes of at most " + source.largestPass());
            // 5 steps of Binomial(400, 0.05): mean 100, sd 9.7
            assertTrue(source.largestPass() < 150, "a pass holds about 5 expected batches, not N: " + source.largestPass());
            // the plan's 40 steps end with a pass of the 10 left, not of 5 more
            trainer.run(10);
            assertEquals(8, source.passes());
            assertEquals(0, source.heldRows());
        }
    }

    @Test
    void aSeededStreamingRunResumedEqualsTheUninterruptedOne(@TempDir Path dir) {
        DpSgdConfig cfg = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1.1).delta(1e-5).batchSize(40).epochs(2).build();
        // cut at 7 with passes of 3: the resumed run's passes start at 7, 10, ..., the uninterrupted one's at 6, 9, ...
        RunAssertions.assertResumeEqualsUninterrupted(() -> seeded(PrivateTrainer.builder(TestNetworks.mlp(DataType.FLOAT,
                5, Activation.TANH, Activation.SIGMOID, LossFunction.XENT, new Adam(0.05), 5, 4, 1), cfg))
                .streaming(iterator(), 3).build(), 7, 20, dir.resolve("streamed.ckpt"));
    }

    private static String refusal(Executable build) {
        return assertThrows(IllegalArgumentException.class, build).getMessage();
    }

    private static void assertContains(String text, String... parts) {
        for (String p : parts) {
            assertTrue(text.contains(p), "\"" + p + "\" is missing from: " + text);
        }
    }

    private static PrivateTrainer streaming(DataSetIterator data) {
        DpSgdConfig cfg = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-5).batchSize(20).epochs(1).build();
        return seeded(PrivateTrainer.builder(mlp(), cfg)).streaming(data, 5).build();
    }

    @Test
    void whatCannotStreamIsRefusedWithTheFix() {
        assertContains(refusal(() -> streaming(new ExistingDataSetIterator(new DataSet(X, Y).batchBy(64).iterator()))),
                "the iterator cannot be reset", "give a resettable iterator", "data(iterator)");

        List<DataSet> uneven = new ArrayList<>(new DataSet(X, Y).batchBy(64));
        uneven.set(2, new DataSet(Nd4j.rand(DataType.FLOAT, 64, 4), uneven.get(2).getLabels()));
        assertContains(refusal(() -> streaming(new ExistingDataSetIterator(uneven))),
                "the iterator's batch 3 has features [64, 4] and labels [64, 1], unlike its first batch ([64, 5], [64, 1])",
                "give an iterator whose batches all hold examples of the first batch's shape");

        assertContains(refusal(() -> streaming(new ExistingDataSetIterator(new DataSet(X.getColumns(0, 1, 2, 3), Y)
                .batchBy(64)))), "the features have 4 values per example but layer 0 (DenseLayer) takes 5");

        DataSet masked = new DataSet(X, Y, Nd4j.ones(DataType.FLOAT, N, 1), null);
        assertContains(refusal(() -> streaming(new ExistingDataSetIterator(masked.batchBy(64)))), "batch 1 carries masks");

        DpSgdConfig cfg = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-5).batchSize(20).epochs(1).build();
        assertContains(refusal(() -> PrivateTrainer.builder(mlp(), cfg).streaming(iterator(), 0).build()),
                "give stepsPerPass >= 1");
    }

    @Test
    void imagesAndLabelsAreCheckedAndShapedAsInMemory() {
        int n = 68;
        INDArray images = Nd4j.rand(DataType.FLOAT, n, 1, 8, 8);
        INDArray y = TestNetworks.oneHot(DataType.FLOAT, 3, n, 3);
        DpSgdConfig cfg = DpSgdConfig.builder().clipNorm(1).noiseMultiplier(1).delta(1e-3).batchSize(16).epochs(1).build();
        for (InputType input : new InputType[]{InputType.convolutional(8, 8, 1), InputType.convolutionalFlat(8, 8, 1)}) {
            try (PrivateTrainer streamed = seeded(PrivateTrainer.builder(cnn(input), cfg))
                    .streaming(new ExistingDataSetIterator(new DataSet(images, y).batchBy(20)), 3).build();
                 PrivateTrainer held = seeded(PrivateTrainer.builder(cnn(input), cfg)).data(images, y).build()) {
                streamed.run(4);
                held.run(4);
                assertArrayEquals(held.parameters().toDoubleVector(), streamed.parameters().toDoubleVector(), 0.0,
                        input.toString());
            }
        }
        assertContains(refusal(() -> seeded(PrivateTrainer.builder(cnn(InputType.convolutional(8, 8, 1)), cfg))
                        .streaming(new ExistingDataSetIterator(new DataSet(images.permute(0, 2, 3, 1).dup(), y).batchBy(20)), 3)
                        .build()), "channels last (NHWC)", "features.permute(0, 3, 1, 2)");
        INDArray indices = Nd4j.createFromArray(new float[n]).reshape(n, 1).addi(1);
        assertContains(refusal(() -> seeded(PrivateTrainer.builder(cnn(InputType.convolutional(8, 8, 1)), cfg))
                        .streaming(new ExistingDataSetIterator(new DataSet(images, indices).batchBy(20)), 3).build()),
                "look like class indices 0..2", "FeatureUtil.toOutcomeMatrix");
    }

    /** A small convolutional network on 8 x 8 images with 3 classes. */
    private static MultiLayerNetwork cnn(InputType input) {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(3).dataType(DataType.FLOAT)
                .updater(new Sgd(0.1)).list()
                .layer(new ConvolutionLayer.Builder(3, 3).nOut(4).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(3).activation(Activation.SOFTMAX).build())
                .setInputType(input).build());
        net.init();
        return net;
    }

    @Test
    void anIteratorThatChangesBetweenPassesIsRefusedWithTheFix() {
        List<DataSet> batches = new ArrayList<>(new DataSet(X, Y).batchBy(64));
        try (PrivateTrainer trainer = streaming(new ExistingDataSetIterator(batches))) {
            trainer.run(5);
            batches.remove(0);
            String m = assertThrows(IllegalStateException.class, trainer::step).getMessage();
            assertContains(m, "pass 2 over the iterator gave 336 examples, but it gave 400 when the trainer was built",
                    "give an iterator that returns the same data after every reset");
        }
    }
}
