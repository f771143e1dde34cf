package org.dpdl4j.audit;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.ExampleGradients;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.optim.StepTap;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dirac canaries on zero-gradient coordinates, scored by the likelihood-ratio auditor: the coordinates really carry no
 * data gradient, the score is its formula, a correct mechanism is never caught and a broken one (noise 10x too small,
 * or canaries that escape clipping) is.
 */
class DiracCanaryAuditTest {
    private static final int N = 3000;
    private static final int FEATURES = 50;
    /** The last features are 0 on every example: their weights to the 128 hidden units carry no data gradient. */
    private static final int ZERO_FEATURES = 10;
    private static final int HIDDEN = 128;
    private static final int CANARIES = 1000;
    private static final double CLAIMED_EPSILON = 1.0;
    private static final double DELTA = 1e-5;

    private static MultiLayerNetwork mlp(long seed) {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(seed)
                .dataType(DataType.FLOAT).updater(new Sgd(0.2)).weightInit(WeightInit.XAVIER).list()
                .layer(new DenseLayer.Builder().nIn(FEATURES).nOut(HIDDEN).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(HIDDEN).nOut(2).activation(Activation.SOFTMAX).build())
                .build());
        net.init();
        return net;
    }

    /** Gaussian features with the last {@value #ZERO_FEATURES} set to 0. */
    private static INDArray features(long seed) {
        INDArray x = Nd4j.getRandomFactory().getNewRandomInstance(seed).nextGaussian(new long[]{N, FEATURES})
                .castTo(DataType.FLOAT);
        x.get(NDArrayIndex.all(), NDArrayIndex.interval(FEATURES - ZERO_FEATURES, FEATURES)).assign(0);
        return x;
    }

    private static INDArray labels(long seed) {
        INDArray y = Nd4j.zeros(DataType.FLOAT, N, 2);
        SplittableRandom labels = new SplittableRandom(seed);
        for (int i = 0; i < N; i++) {
            y.putScalar(i, labels.nextInt(2), 1f);
        }
        return y;
    }

    @Test
    void theCoordinatesAreTheZeroFeaturesWeightsAndCarryNoGradient() {
        MultiLayerNetwork net = mlp(3);
        INDArray x = features(3);
        INDArray y = labels(4);
        ZeroGradientCoordinates zero = ZeroGradientCoordinates.find(net, x);
        assertEquals(ZERO_FEATURES, zero.features());
        assertEquals(ZERO_FEATURES * HIDDEN, zero.coordinates().length);
        // Each coordinate is a weight of a zero feature: marking it in the flattened parameters marks the weight matrix.
        INDArray flat = net.params().dup();
        net.params().assign(0);
        for (int j : zero.coordinates()) {
            net.params().putScalar(j, 1);
        }
        INDArray w = net.getParam("0_W");
        assertEquals(ZERO_FEATURES * HIDDEN, w.sumNumber().intValue());
        assertEquals(ZERO_FEATURES * HIDDEN, w.get(NDArrayIndex.interval(FEATURES - ZERO_FEATURES, FEATURES),
                NDArrayIndex.all()).sumNumber().intValue());
        net.params().assign(flat);
        // Every example's gradient there is exactly 0.
        ExampleGradients engine = ExampleGradients.of(net, ComputeDevice.CPU);
        INDArray gradient = Nd4j.create(DataType.FLOAT, 1, net.numParams());
        for (int i = 0; i < 50; i++) {
            engine.sumClipped(net.params(), x.getRows(i), y.getRows(i), null, 1e6, gradient);
            assertTrue(gradient.sumNumber().doubleValue() != 0, "example " + i + " has some gradient");
            for (int j : zero.coordinates()) {
                assertEquals(0.0, gradient.getDouble(j), "example " + i + ", coordinate " + j);
            }
        }
    }

    @Test
    void askingForMoreCanariesThanZeroCoordinatesIsRefusedWithTheCount() {
        ZeroGradientCoordinates zero = ZeroGradientCoordinates.find(mlp(3), features(3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> zero.first(1281));
        assertTrue(e.getMessage().contains("1,281 Dirac canaries") && e.getMessage().contains("has 1,280"),
                e.getMessage());
        assertEquals(1280, zero.first(1280).length);
    }

    @Test
    void theScoreIsTheLogLikelihoodRatioOfEachStep() {
        long p = 20;
        int[] coordinates = {3, 7, 11, 19};
        DiracCanaries canaries = DiracCanaries.on(coordinates, p, 2.0, DataType.DOUBLE, new SplittableRandom(1));
        double q = 0.05;
        double clip = 2.0;
        double z = 0.8;
        double divisor = 100;
        double noiseStd = z * clip / divisor;
        LikelihoodRatioAuditor auditor = new LikelihoodRatioAuditor(canaries, q);
        double[][] g = {new double[(int) p], new double[(int) p]};
        // Entries in noise units: ordinary, large (the included-canary side), far out (exp would overflow), negative.
        double[][] units = {{0.3, 1.9, 900, -2.5}, {-0.1, 2.4, 0.0, 40}};
        for (int t = 0; t < 2; t++) {
            for (int k = 0; k < coordinates.length; k++) {
                g[t][coordinates[k]] = units[t][k] * noiseStd;
            }
            auditor.onStep(new StepTap(t, Nd4j.zeros(DataType.DOUBLE, 1, p), Nd4j.createFromArray(g[t]).reshape(1, p),
                    noiseStd, 100, clip, divisor));
        }
        double mu = 1 / z;
        double[] scores = auditor.scores();
        for (int k = 0; k < coordinates.length; k++) {
            double expected = 0;
            for (int t = 0; t < 2; t++) {
                double a = mu * units[t][k] - mu * mu / 2;
                // log(1 - q + q e^a), written so that a = 1125 does not overflow.
                expected += a > 0 ? a + Math.log(q + (1 - q) * Math.exp(-a)) : Math.log(1 - q + q * Math.exp(a));
            }
            assertEquals(expected, scores[k], 1e-9 * Math.max(1, Math.abs(expected)), "canary " + k);
        }
        assertEquals(2, auditor.steps());
    }

    /** One audited run of Dirac canaries: the accountant's epsilon and the likelihood-ratio and summed-score audits. */
    private record Run(double epsilon, AuditResult ratio, AuditResult summed) {
    }

    private static Run run(long seed, double noiseFactor, double canaryNormFactor) {
        INDArray x = features(seed);
        INDArray y = labels(seed + 1);
        MultiLayerNetwork net = mlp(seed);
        double clip = 1.0;
        DiracCanaries canaries = DiracCanaries.on(ZeroGradientCoordinates.find(net, x).first(CANARIES), net.numParams(),
                clip * canaryNormFactor, DataType.FLOAT, new SplittableRandom(seed + 3));
        DpSgdConfig cfg = DpSgdConfig.forTarget(clip, CLAIMED_EPSILON, DELTA, 100, 4);
        NoiseSource noise = new GradientCanaryAuditTest.Scaled(
                SeededNoiseSource.forKey(new NoiseKey(seed, "audit-test", 0, 0)), noiseFactor);
        try (PrivateTrainer t = PrivateTrainer.builder(net, cfg).data(x, y).planted(canaries).noise(noise)
                .sampling(new SplittableRandom(seed + 4)).build()) {
            LikelihoodRatioAuditor ratio = new LikelihoodRatioAuditor(canaries, t.sampler().samplingRate());
            WhiteBoxAuditor summed = new WhiteBoxAuditor(canaries);
            t.addObserver(ratio);
            t.addObserver(summed);
            t.fit();
            assertEquals(t.steps(), ratio.steps());
            return new Run(t.epsilon(),
                    AuditResult.of(ratio.scores(), canaries.coins(), GuessPlan.sweep(CANARIES), DELTA, 0.95),
                    AuditResult.of(summed.scores(), canaries.coins(), GuessPlan.sweep(CANARIES), DELTA, 0.95));
        }
    }

    @Test
    void aCorrectMechanismIsNeverCaughtOverSeveralSeeds() {
        for (long seed = 1; seed <= 4; seed++) {
            Run r = run(seed, 1.0, 1.0);
            assertTrue(r.epsilon() <= CLAIMED_EPSILON + 1e-9, "accountant: " + r.epsilon());
            assertTrue(r.ratio().epsilonLower() <= r.epsilon(), "seed " + seed + ", ratio: " + r.ratio().text());
            assertTrue(r.summed().epsilonLower() <= r.epsilon(), "seed " + seed + ", summed: " + r.summed().text());
        }
    }

    @Test
    void noiseTenTimesTooSmallIsCaught() {
        Run r = run(11, 0.1, 1.0);
        assertTrue(r.ratio().epsilonLower() > r.epsilon(), "epsilon " + r.epsilon() + ": " + r.ratio().text());
        assertTrue(r.ratio().auc() > 0.9, r.ratio().text());
        assertTrue(r.summed().epsilonLower() > r.epsilon(), "summed: " + r.summed().text());
    }

    @Test
    void canariesThatEscapeClippingAreCaught() {
        Run r = run(12, 1.0, 10.0);
        assertTrue(r.ratio().epsilonLower() > r.epsilon(), "epsilon " + r.epsilon() + ": " + r.ratio().text());
    }
}
