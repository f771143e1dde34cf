package org.dpdl4j.audit;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Black-box input canaries: mislabelled examples, scored by the final model alone. */
class InputCanaryAuditTest {
    private static final int N = 1000;
    private static final int CANARIES = 600;
    private static final int FEATURES = 20;
    private static final int CLASSES = 10;
    private static final double CLAIMED_EPSILON = 1.0;
    private static final double DELTA = 1e-5;

    /** Noise at a fraction of what the accountant assumes. */
    private record Scaled(NoiseSource inner, double factor) implements NoiseSource {
        @Override
        public void addGaussian(INDArray target, double std) {
            inner.addGaussian(target, std * factor);
        }

        @Override
        public boolean isSecure() {
            return false;
        }

        @Override
        public String description() {
            return "broken: " + factor + " x " + inner.description();
        }
    }

    private record Run(double epsilon, AuditResult audit) {
    }

    private static Run run(long seed, double noiseFactor, double clip) {
        INDArray all = Nd4j.getRandomFactory().getNewRandomInstance(seed)
                .nextGaussian(new long[]{N + CANARIES, FEATURES}).castTo(DataType.FLOAT);
        // Ten classes from a linear teacher: a canary's wrong label is one of nine, so included canaries do not teach
        // the model anything that also fits the excluded ones.
        INDArray teacher = Nd4j.getRandomFactory().getNewRandomInstance(seed + 1)
                .nextGaussian(new long[]{FEATURES, CLASSES}).castTo(DataType.FLOAT);
        int[] classes = all.mmul(teacher).argMax(1).toIntVector();
        INDArray labels = Nd4j.zeros(DataType.FLOAT, N + CANARIES, CLASSES);
        for (int i = 0; i < classes.length; i++) {
            labels.putScalar(i, classes[i], 1.0);
        }
        INDArray x = all.get(NDArrayIndex.interval(0, N), NDArrayIndex.all());
        INDArray y = labels.get(NDArrayIndex.interval(0, N), NDArrayIndex.all());
        // Canaries far out in input space (4x the data's scale): their gradients barely meet the data's, as a
        // mislabelled outlier's would, so a model that fits them shows it.
        InputCanaries canaries = InputCanaries.mislabel(all.get(NDArrayIndex.interval(N, N + CANARIES), NDArrayIndex.all()).mul(4),
                labels.get(NDArrayIndex.interval(N, N + CANARIES), NDArrayIndex.all()), new SplittableRandom(seed + 2),
                new SplittableRandom(seed + 3));
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(seed)
                .dataType(DataType.FLOAT).updater(new Sgd(0.5)).weightInit(WeightInit.XAVIER).list()
                .layer(new DenseLayer.Builder().nIn(FEATURES).nOut(256).activation(Activation.RELU).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(256).nOut(CLASSES).activation(Activation.SOFTMAX).build())
                .build());
        net.init();
        DpSgdConfig cfg = DpSgdConfig.forTarget(clip, CLAIMED_EPSILON, DELTA, 50, 30);
        NoiseSource noise = new Scaled(SeededNoiseSource.forKey(new NoiseKey(seed, "input-canaries", 0, 0)), noiseFactor);
        try (PrivateTrainer t = PrivateTrainer.builder(net, cfg).data(canaries.withIncludedFeatures(x),
                        canaries.withIncludedLabels(y)).noise(noise).sampling(new SplittableRandom(seed + 4)).build()) {
            assertEquals(N + canaries.count(), t.sampler().datasetSize());
            t.fit();
            AuditResult audit = AuditResult.of(canaries.scores(net), canaries.coins(), GuessPlan.sweep(CANARIES), DELTA,
                    OneRunAudit.DEFAULT_CONFIDENCE);
            return new Run(t.epsilon(), audit);
        }
    }

    @Test
    void aCorrectMechanismStaysBelowItsEpsilon() {
        for (long seed = 1; seed <= 3; seed++) {
            Run r = run(seed, 1.0, 1.0);
            assertTrue(r.audit().epsilonLower() <= r.epsilon(), "seed " + seed + ": " + r.audit().text());
        }
    }

    @Test
    void aMechanismWithoutItsNoiseIsCaughtFromTheFinalModelAlone() {
        // The accountant assumes noise of std z C on the clipped sum; the broken mechanism adds none, and its clip
        // (C = 100) is above every gradient, so the model fits the canaries it trained on.
        Run r = run(7, 0.0, 100.0);
        assertTrue(r.audit().epsilonLower() > r.epsilon(), "epsilon " + r.epsilon() + ": " + r.audit().text());
    }

    @Test
    void relabelsEveryCanaryAwayFromItsClass() {
        INDArray pool = Nd4j.rand(DataType.FLOAT, 200, 3);
        INDArray own = Nd4j.zeros(DataType.FLOAT, 200, 4);
        for (int i = 0; i < 200; i++) {
            own.putScalar(i, i % 4, 1.0);
        }
        InputCanaries c = InputCanaries.mislabel(pool, own, new SplittableRandom(1), new SplittableRandom(2));
        INDArray x = c.withIncludedFeatures(Nd4j.zeros(DataType.FLOAT, 5, 3));
        INDArray y = c.withIncludedLabels(Nd4j.zeros(DataType.FLOAT, 5, 4));
        assertEquals(5 + c.count(), x.size(0));
        assertEquals(5 + c.count(), y.size(0));
        INDArray appended = y.get(NDArrayIndex.interval(5, 5 + c.count()), NDArrayIndex.all());
        assertEquals(c.count(), appended.sumNumber().intValue(), "one label per canary");
        boolean[] coins = c.coins();
        int row = 0;
        for (int i = 0; i < 200; i++) {
            if (coins[i]) {
                assertEquals(0.0, appended.getDouble(row, i % 4), "canary " + i + " kept its own class");
                row++;
            }
        }
        assertTrue(c.count() > 70 && c.count() < 130, "coins " + c.count());
    }
}
