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
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * White-box gradient canaries in DP-SGD: the audit of a correct mechanism never exceeds its epsilon, and a broken one
 * (noise 10x too small, or canaries that escape clipping) is caught.
 */
class GradientCanaryAuditTest {
    private static final int N = 3000;
    private static final int FEATURES = 50;
    private static final int CANARIES = 1000;
    private static final double CLAIMED_EPSILON = 1.0;
    private static final double DELTA = 1e-5;

    /** What one audited run gave: the accountant's epsilon, and the audits of the plain and the centred auditor. */
    private record Run(double epsilon, AuditResult audit, AuditResult centred) {
    }

    /** Noise whose std is a fraction of what the mechanism claims: a deliberately broken mechanism. */
    record Scaled(NoiseSource inner, double factor) implements NoiseSource {
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

    private static MultiLayerNetwork mlp(long seed) {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(seed)
                .dataType(DataType.FLOAT).updater(new Sgd(0.2)).weightInit(WeightInit.XAVIER).list()
                .layer(new DenseLayer.Builder().nIn(FEATURES).nOut(128).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(128).nOut(2).activation(Activation.SOFTMAX).build())
                .build());
        net.init();
        return net;
    }

    /**
     * A run on Gaussian features with labels drawn independently of them, so that the data's mean gradient is small.
     * The data still adds to every canary's score: the sampled batch's clipped sum has a projection of about
     * C^2 / sqrt(B p) on a canary per step, against C^2 / B from a sampled canary itself, so the network is wide
     * enough (p = 6786), and the clip large enough (C = 10, above most of its examples' gradient norms), for the audit
     * to see the canaries when the noise is too small.
     */
    private static Run run(long seed, double noiseFactor, double canaryNormFactor) {
        INDArray x = Nd4j.getRandomFactory().getNewRandomInstance(seed).nextGaussian(new long[]{N, FEATURES}).castTo(DataType.FLOAT);
        INDArray y = Nd4j.zeros(DataType.FLOAT, N, 2);
        SplittableRandom labels = new SplittableRandom(seed + 1);
        for (int i = 0; i < N; i++) {
            y.putScalar(i, labels.nextInt(2), 1f);
        }
        MultiLayerNetwork net = mlp(seed);
        double clip = 10.0;
        GradientCanaries canaries = GradientCanaries.draw(CANARIES, net.numParams(), clip * canaryNormFactor,
                DataType.FLOAT, seed + 2, new SplittableRandom(seed + 3));
        DpSgdConfig cfg = DpSgdConfig.forTarget(clip, CLAIMED_EPSILON, DELTA, 100, 4);
        NoiseSource noise = new Scaled(SeededNoiseSource.forKey(new NoiseKey(seed, "audit-test", 0, 0)), noiseFactor);
        try (PrivateTrainer t = PrivateTrainer.builder(net, cfg).data(x, y).planted(canaries).noise(noise)
                .sampling(new SplittableRandom(seed + 4)).build()) {
            WhiteBoxAuditor auditor = new WhiteBoxAuditor(canaries);
            WhiteBoxAuditor centred = new WhiteBoxAuditor(canaries, new ExpectedDataGradient(net, x, y, clip,
                    t.sampler().samplingRate(), t.sampler().expectedBatchSize()));
            t.addObserver(auditor);
            t.addObserver(centred);
            t.fit();
            assertEquals(t.steps(), auditor.steps());
            AuditResult audit = AuditResult.of(auditor.scores(), canaries.coins(), GuessPlan.sweep(CANARIES), DELTA,
                    OneRunAudit.DEFAULT_CONFIDENCE);
            AuditResult centredAudit = AuditResult.of(centred.scores(), canaries.coins(), GuessPlan.sweep(CANARIES),
                    DELTA, OneRunAudit.DEFAULT_CONFIDENCE);
            return new Run(t.epsilon(), audit, centredAudit);
        }
    }

    @Test
    void subtractingTheDataGradientRecoversCanariesThatCoherentGradientsHide() {
        // Labels from a linear teacher: every example's clipped gradient points roughly the same way, step after step,
        // and its projection on each canary (fixed per canary, about C |mean gradient| / sqrt(p) per step) swamps the
        // canaries' own share. The same run, scored by both auditors, with noise 10x too small.
        long seed = 21;
        INDArray x = Nd4j.getRandomFactory().getNewRandomInstance(seed).nextGaussian(new long[]{N, FEATURES}).castTo(DataType.FLOAT);
        INDArray teacher = Nd4j.getRandomFactory().getNewRandomInstance(seed + 1).nextGaussian(new long[]{FEATURES, 1})
                .castTo(DataType.FLOAT);
        INDArray positive = x.mmul(teacher).gt(0).castTo(DataType.FLOAT);
        INDArray y = Nd4j.hstack(positive.rsub(1.0), positive);
        MultiLayerNetwork net = mlp(seed);
        double clip = 1.0;
        GradientCanaries canaries = GradientCanaries.draw(CANARIES, net.numParams(), clip, DataType.FLOAT, seed + 2,
                new SplittableRandom(seed + 3));
        DpSgdConfig cfg = DpSgdConfig.forTarget(clip, CLAIMED_EPSILON, DELTA, 100, 4);
        NoiseSource noise = new Scaled(SeededNoiseSource.forKey(new NoiseKey(seed, "audit-test", 0, 0)), 0.1);
        AuditResult plain;
        AuditResult centred;
        double epsilon;
        try (PrivateTrainer t = PrivateTrainer.builder(net, cfg).data(x, y).planted(canaries).noise(noise)
                .sampling(new SplittableRandom(seed + 4)).build()) {
            WhiteBoxAuditor plainAuditor = new WhiteBoxAuditor(canaries);
            WhiteBoxAuditor centredAuditor = new WhiteBoxAuditor(canaries, new ExpectedDataGradient(net, x, y, clip,
                    t.sampler().samplingRate(), t.sampler().expectedBatchSize()));
            t.addObserver(plainAuditor);
            t.addObserver(centredAuditor);
            t.fit();
            epsilon = t.epsilon();
            plain = AuditResult.of(plainAuditor.scores(), canaries.coins(), GuessPlan.sweep(CANARIES), DELTA, 0.95);
            centred = AuditResult.of(centredAuditor.scores(), canaries.coins(), GuessPlan.sweep(CANARIES), DELTA, 0.95);
        }
        assertTrue(plain.auc() < 0.62, "plain: " + plain.text());
        assertTrue(centred.auc() > plain.auc() + 0.15, "plain: " + plain.text() + "centred: " + centred.text());
        assertTrue(centred.epsilonLower() > epsilon, "epsilon " + epsilon + ", centred: " + centred.text());
    }

    @Test
    void theExpectedDataGradientIsTheSampledSumsMean() {
        // With q = 1 every example is in every batch: the expectation is the full clipped sum over B.
        INDArray x = Nd4j.getRandomFactory().getNewRandomInstance(5).nextGaussian(new long[]{2500, FEATURES}).castTo(DataType.FLOAT);
        INDArray y = Nd4j.zeros(DataType.FLOAT, 2500, 2);
        y.getColumn(0).assign(1);
        MultiLayerNetwork net = mlp(5);
        INDArray expected = Nd4j.create(DataType.FLOAT, 1, net.numParams());
        org.dpdl4j.optim.ExampleGradients.of(net, org.dpdl4j.optim.ComputeDevice.CPU)
                .sumClipped(net.params(), x, y, null, 0.5, expected);
        ExpectedDataGradient reference = new ExpectedDataGradient(net, x, y, 0.5, 1.0, 2500);
        INDArray got = reference.at(net.params());
        assertTrue(got.reshape(1, net.numParams()).equalsWithEps(expected.div(2500), 1e-6),
                "chunked expectation differs from one pass");
    }

    @Test
    void aCorrectMechanismIsNeverCaughtOverSeveralSeeds() {
        for (long seed = 1; seed <= 5; seed++) {
            Run r = run(seed, 1.0, 1.0);
            assertTrue(r.epsilon() <= CLAIMED_EPSILON + 1e-9, "accountant: " + r.epsilon());
            assertTrue(r.audit().epsilonLower() <= r.epsilon(), "seed " + seed + ": " + r.audit().text());
            assertTrue(r.centred().epsilonLower() <= r.epsilon(), "seed " + seed + ", centred: " + r.centred().text());
        }
    }

    @Test
    void noiseTenTimesTooSmallIsCaught() {
        Run r = run(11, 0.1, 1.0);
        assertTrue(r.audit().epsilonLower() > r.epsilon(), "epsilon " + r.epsilon() + ": " + r.audit().text());
        assertTrue(r.audit().auc() > 0.7, r.audit().text());
        assertTrue(r.centred().epsilonLower() > r.epsilon(), "centred: " + r.centred().text());
    }

    @Test
    void canariesThatEscapeClippingAreCaught() {
        // The mechanism adds canary gradients of norm 10 C: what a missing clip does to a large-norm example.
        Run r = run(12, 1.0, 10.0);
        assertTrue(r.audit().epsilonLower() > r.epsilon(), "epsilon " + r.epsilon() + ": " + r.audit().text());
    }
}
