package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.runtime.CheckpointException;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.RunAssertions;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.privacy.accounting.DpSgd;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.optimize.api.BaseTrainingListener;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.learning.config.Adam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrivateTrainerTest {
    private static final int N = 2000;

    /** A linearly separable two-class problem in 5 dimensions. */
    private static INDArray[] data() {
        INDArray x = TestNetworks.features(DataType.FLOAT, 11, N, 5);
        INDArray w = Nd4j.createFromArray(1f, -2f, 0.5f, 1.5f, -1f).reshape(5, 1);
        INDArray y = x.mmul(w).gt(0).castTo(DataType.FLOAT);
        return new INDArray[]{x, y};
    }

    private static MultiLayerNetwork logistic() {
        return TestNetworks.mlp(DataType.FLOAT, 5, Activation.IDENTITY, Activation.SIGMOID, LossFunction.XENT, new Sgd(0.5), 5, 1);
    }

    private static PrivateTrainer trainer(MultiLayerNetwork net, DpSgdConfig cfg, INDArray[] d) {
        return PrivateTrainer.create(net, cfg, d[0], d[1], SeededNoiseSource.forKey(new NoiseKey(1, "t", 0, 0)), new SplittableRandom(3));
    }

    @Test
    void thePlannedLedgerIsTheLedgerTheRunEndsWith() {
        INDArray[] d = data();
        PrivateTrainer t = trainer(logistic(), DpSgdConfig.forTarget(1.0, 2.0, 1e-5, 100, 3), d);
        var planned = t.plannedLedger().orElseThrow();
        assertTrue(t.ledger().orElseThrow().ledger().isEmpty(), "known before the first step");
        t.runToEnd();
        assertEquals(t.ledger().orElseThrow().ledger(), planned);
        assertEquals(t.epsilon(), t.ledger().orElseThrow().accounting().bound(planned, 1e-5,
                org.dpdl4j.privacy.accounting.Conversion.STANDARD).epsilon(), 0.0);
    }

    @Test
    void calibratedRunEndsAtOrBelowTheTargetAndLearns() {
        INDArray[] d = data();
        MultiLayerNetwork net = logistic();
        PrivateTrainer t = trainer(net, DpSgdConfig.forTarget(1.0, 2.0, 1e-5, 100, 5), d);
        for (int e = 0; e < 5; e++) {
            t.fitEpoch();
        }
        assertEquals(100, t.steps());
        assertTrue(t.epsilon() <= 2.0, "spent " + t.epsilon());
        double expected = DpSgd.accountant(100.0 / N, t.noiseMultiplier(), t.steps()).epsilon(1e-5);
        assertEquals(expected, t.epsilon(), 1e-12, "fast per-step accounting equals the ledger accountant");
        double acc = net.output(d[0]).gt(0.5).castTo(DataType.FLOAT).eq(d[1]).castTo(DataType.FLOAT).meanNumber().doubleValue();
        assertTrue(acc > 0.9, "accuracy " + acc);
        assertTrue(t.statement().text().contains("epsilon"));
    }

    @Test
    void stopsBeforeTheBudgetWithoutTouchingTheModel() {
        INDArray[] d = data();
        DpSgdConfig noisy = DpSgdConfig.withNoise(1.0, 0.8, 1e-5, 100, 10);
        PrivateTrainer probe = trainer(logistic(), noisy, d);
        double budget = RunAssertions.between(probe.epsilonAfter(23, Conversion.STANDARD).epsilon(),
                probe.epsilonAfter(24, Conversion.STANDARD).epsilon());
        PrivateTrainer t = trainer(logistic(), noisy.withBudget(budget), d);
        PrivacyBudgetExceededException stop = RunAssertions.assertStopsAtBudget(t, 23);
        assertEquals(probe.epsilonAfter(24, Conversion.STANDARD).epsilon(), stop.epsilonNext(), 0.0);
        assertEquals(t.epsilonAfter(23, Conversion.STANDARD).epsilon(), t.epsilon(), 0.0, "the ledger's epsilon is the planned one");
    }

    @Test
    void samplerChoosesTheAnalysis() {
        INDArray[] d = data();
        PrivateTrainer poisson = trainer(logistic(), DpSgdConfig.withNoise(1.0, 1.0, 1e-5, 50, 1), d);
        PrivateTrainer fixed = trainer(logistic(), DpSgdConfig.withNoise(1.0, 1.0, 1e-5, 50, 1)
                .withSampling(SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT), d);
        assertEquals(NeighbouringRelation.ADD_OR_REMOVE_ONE, poisson.sampler().relation());
        assertEquals(NeighbouringRelation.REPLACE_ONE, fixed.sampler().relation());
        poisson.step();
        fixed.step();
        assertTrue(poisson.statement().text().contains("Poisson"));
        assertTrue(fixed.epsilon() > poisson.epsilon(), "replace-one is the stronger relation");
    }

    @Test
    void configRejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> DpSgdConfig.withNoise(0, 1, 1e-5, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> DpSgdConfig.withNoise(1, 0, 1e-5, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> DpSgdConfig.forTarget(1, -2, 1e-5, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> DpSgdConfig.forTarget(1, 2, 1.5, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> DpSgdConfig.forTarget(1, 2, 1e-5, 0, 1));
        INDArray[] d = data();
        assertThrows(IllegalArgumentException.class, () -> trainer(logistic(), DpSgdConfig.withNoise(1, 1, 1e-5, N + 1, 1), d));
    }

    @Test
    void theCalibratedNumberOfEpochsFitsTheBudgetExactly() {
        // 1/q = 2000/64 = 31.25 is not whole: fitEpoch() takes 31 steps, so 15 epochs must be planned as 465 steps.
        INDArray[] d = data();
        PrivateTrainer t = trainer(logistic(), DpSgdConfig.forTarget(1.0, 1.0, 1e-5, 64, 15), d);
        for (int e = 0; e < 15; e++) {
            t.fitEpoch();
        }
        assertEquals(15 * t.sampler().stepsPerEpoch(), t.steps());
        assertEquals(t.plannedSteps(), t.steps());
        assertTrue(t.epsilon() <= 1.0 && t.epsilon() > 0.99, "epsilon " + t.epsilon());
    }

    /** A trainer of a fresh Adam network (updater state to restore) with the seeded streams every test run shares. */
    private static PrivateTrainer adamTrainer(DpSgdConfig cfg, INDArray[] d) {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 5, Activation.TANH, Activation.SIGMOID, LossFunction.XENT,
                new Adam(0.05), 5, 4, 1);
        return trainer(net, cfg, d);
    }

    @Test
    void aResumedRunReplaysItsStreamsAndEqualsAnUninterruptedOne(@TempDir Path dir) {
        INDArray[] d = data();
        DpSgdConfig cfg = DpSgdConfig.withNoise(1.0, 1.1, 1e-5, 100, 1);
        RunAssertions.assertResumeEqualsUninterrupted(() -> adamTrainer(cfg, d), 7, 20, dir.resolve("dp-sgd.ckpt"));
    }

    @Test
    void aCheckpointOfAnotherUpdaterIsRefusedWithoutTouchingTheRun(@TempDir Path dir) {
        INDArray[] d = data();
        DpSgdConfig cfg = DpSgdConfig.withNoise(1.0, 1.1, 1e-5, 100, 1);
        Path file = dir.resolve("sgd-updater.ckpt");
        MultiLayerNetwork plain = TestNetworks.mlp(DataType.FLOAT, 5, Activation.TANH, Activation.SIGMOID, LossFunction.XENT,
                new Sgd(0.05), 5, 4, 1);
        try (PrivateTrainer t = trainer(plain, cfg, d)) {
            t.run(3);
            RunCheckpoint.save(t, file);
        }
        // Same settings, same shapes, but Adam keeps moments the plain checkpoint does not have.
        try (PrivateTrainer adam = adamTrainer(cfg, d)) {
            double[] before = adam.parameters().toDoubleVector();
            CheckpointException e = assertThrows(CheckpointException.class,
                    () -> RunCheckpoint.resume(adam, RunCheckpoint.read(file), ResumePolicy.strict()));
            assertTrue(e.getMessage().contains("does not fit") && e.getMessage().contains("'updater'"), e.getMessage());
            assertArrayEquals(before, adam.parameters().toDoubleVector(), 0.0, "nothing restored");
            assertEquals(0, adam.completedSteps());
            assertTrue(adam.ledger().orElseThrow().ledger().isEmpty());
        }
    }

    /** Records the DL4J callbacks a network receives, with the iteration and epoch they report. */
    private static final class CallbackLog extends BaseTrainingListener {
        final List<String> calls = new ArrayList<>();

        @Override
        public void onEpochStart(Model model) {
            calls.add("epochStart");
        }

        @Override
        public void onEpochEnd(Model model) {
            calls.add("epochEnd");
        }

        @Override
        public void onForwardPass(Model model, List<INDArray> activations) {
            calls.add("forward " + activations.stream().map(a -> Arrays.toString(a.shape())).toList());
        }

        @Override
        public void onForwardPass(Model model, Map<String, INDArray> activations) {
            calls.add("forward " + activations.keySet());
        }

        @Override
        public void onBackwardPass(Model model) {
            calls.add("backward");
        }

        @Override
        public void onGradientCalculation(Model model) {
            calls.add("gradient");
        }

        @Override
        public void iterationDone(Model model, int iteration, int epoch) {
            calls.add("iteration " + iteration + " of epoch " + epoch);
        }
    }

    @Test
    void listenersSeeTheCallbacksOfFitInTheSameOrder() {
        // 60 examples in fixed-size batches of 20: three steps an epoch, no empty batch.
        INDArray[] d = {data()[0].get(NDArrayIndex.interval(0, 60)), data()[1].get(NDArrayIndex.interval(0, 60))};
        DpSgdConfig cfg = DpSgdConfig.withNoise(1.0, 1.0, 1e-5, 20, 2).withSampling(SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT);
        MultiLayerNetwork fitted = TestNetworks.mlp(DataType.FLOAT, 5, Activation.TANH, Activation.SIGMOID, LossFunction.XENT,
                new Sgd(0.1), 5, 4, 1);
        CallbackLog byFit = new CallbackLog();
        fitted.setListeners(byFit);
        MultiLayerNetwork privateNet = fitted.clone();
        CallbackLog byTrainer = new CallbackLog();
        privateNet.setListeners(byTrainer);
        PrivateTrainer t = trainer(privateNet, cfg, d);
        assertEquals(3, t.stepsPerEpoch());
        for (int epoch = 0; epoch < 2; epoch++) {
            fitted.fit(new ListDataSetIterator<>(new DataSet(d[0], d[1]).asList(), 20));
            t.fitEpoch();
        }
        assertEquals(2 * (2 + 3 * 4), byFit.calls.size(), "fit's callbacks: " + byFit.calls);
        assertEquals(byFit.calls, byTrainer.calls);
        assertEquals(fitted.getIterationCount(), privateNet.getIterationCount());
        assertEquals(fitted.getEpochCount(), privateNet.getEpochCount());
    }

    @Test
    void anIteratorGivesTheSameRunAsItsArrays() {
        INDArray[] d = data();
        DpSgdConfig cfg = DpSgdConfig.withNoise(1.0, 1.0, 1e-5, 100, 1);
        PrivateTrainer fromArrays = trainer(logistic(), cfg, d);
        // Batches of 64 do not divide the 2000 examples: the last one is short.
        ListDataSetIterator<DataSet> iterator = new ListDataSetIterator<>(new DataSet(d[0], d[1]).asList(), 64);
        PrivateTrainer fromIterator = PrivateTrainer.builder(logistic(), cfg).data(iterator)
                .noise(SeededNoiseSource.forKey(new NoiseKey(1, "t", 0, 0))).sampling(new SplittableRandom(3)).build();
        assertTrue(iterator.hasNext(), "the iterator is reset after it is read");
        fromArrays.run(15);
        fromIterator.run(15);
        assertArrayEquals(fromArrays.parameters().toDoubleVector(), fromIterator.parameters().toDoubleVector(), 0.0);
        assertEquals(fromArrays.epsilon(), fromIterator.epsilon(), 0.0);

        DataSet masked = new DataSet(d[0], d[1], Nd4j.ones(DataType.FLOAT, N, 1), null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PrivateTrainer.builder(logistic(), cfg).data(new ListDataSetIterator<>(masked.asList(), 100)));
        assertTrue(e.getMessage().contains("masks"), e.getMessage());
    }

    @Test
    void secureNoiseWithSeededBatchesIsNotASecureRun() {
        INDArray[] d = data();
        DpSgdConfig cfg = DpSgdConfig.withNoise(1.0, 1.0, 1e-5, 100, 1);
        // Whoever knows the sampler's seed knows every batch: amplification by sampling does not hold against them.
        PrivateTrainer seededBatches = PrivateTrainer.builder(logistic(), cfg).data(d[0], d[1])
                .noise(org.dpdl4j.privacy.noise.SecureNoiseSource.fromSecureRandom()).sampling(new SplittableRandom(3)).build();
        assertFalse(seededBatches.ledger().orElseThrow().secureNoise());
        PrivateTrainer secure = PrivateTrainer.builder(logistic(), cfg).data(d[0], d[1])
                .noise(org.dpdl4j.privacy.noise.SecureNoiseSource.fromSecureRandom()).build();
        assertTrue(secure.ledger().orElseThrow().secureNoise(), "the default sampler is a SecureRandom");
        PrivateTrainer explicit = PrivateTrainer.builder(logistic(), cfg).data(d[0], d[1])
                .noise(org.dpdl4j.privacy.noise.SecureNoiseSource.fromSecureRandom()).sampling(new java.security.SecureRandom()).build();
        assertTrue(explicit.ledger().orElseThrow().secureNoise());
    }

    @Test
    void aRunResumedUnderChangedSettingsDescribesEverySegmentWithItsOwnSteps() {
        INDArray[] d = data();
        PrivateTrainer first = trainer(logistic(), DpSgdConfig.withNoise(1.0, 1.0, 1e-5, 100, 1), d);
        first.run(7);
        String single = first.statement().text();
        assertTrue(single.contains("  Noise multiplier: z = 1 (") && single.contains("  Steps: 7, i.e. 0.35 epochs")
                && !single.contains("Segment"), single);
        // continued with twice the batch and less noise, as --continue-with-new-settings does
        PrivateTrainer second = trainer(logistic(), DpSgdConfig.withNoise(1.0, 0.8, 1e-5, 200, 1), d);
        second.ledger().orElseThrow().continueFrom(first.ledger().orElseThrow().ledger(), true);
        second.restore(first.state(), first.completedSteps());
        second.run(3);
        String text = second.privacyStatement();
        assertTrue(text.startsWith("Privacy statement: DP-SGD (subsampled Gaussian mechanism, per-example clipping to C = each"
                + " segment's clip)\n") && text.contains("composed of 2 settings segments"), text);
        assertTrue(text.contains("  Segment 1 (as started), steps 1 to 7: DP-SGD step") && text.contains("    Steps: 7, i.e. 0.35 epochs")
                && text.contains("    Noise multiplier: z = 1 (") && text.contains("with probability q = 0.05."), text);
        assertTrue(text.contains("  Segment 2 (resumed under changed settings), steps 8 to 10: DP-SGD step")
                && text.contains("    Steps: 3, i.e. 0.30 epochs") && text.contains("    Noise multiplier: z = 0.8 (")
                && text.contains("with probability q = 0.1."), text);
        assertTrue(text.contains("  Steps in all: 10") && !text.contains("\n  Steps: 10"), "no one segment's q and z over every step: " + text);
    }
}
