package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
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

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
        MultiLayerNetwork net = logistic();
        PrivateTrainer t = trainer(net, DpSgdConfig.withNoise(1.0, 0.8, 1e-5, 100, 10).withBudget(1.0), d);
        PrivacyBudgetExceededException stop = null;
        INDArray before = null;
        for (int i = 0; i < 1000 && stop == null; i++) {
            before = net.params().dup();
            try {
                t.step();
            } catch (PrivacyBudgetExceededException e) {
                stop = e;
            }
        }
        assertInstanceOf(PrivacyBudgetExceededException.class, stop);
        assertTrue(t.epsilon() <= 1.0);
        assertTrue(t.epsilonAfter(t.steps() + 1, org.dpdl4j.privacy.accounting.Conversion.STANDARD).epsilon() > 1.0);
        assertArrayEquals(before.toDoubleVector(), net.params().toDoubleVector(), 0.0);
        assertTrue(stop.getMessage().contains("budget"), stop.getMessage());
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
}
