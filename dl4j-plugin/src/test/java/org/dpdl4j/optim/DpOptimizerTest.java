package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Nesterovs;
import org.nd4j.linalg.learning.config.RmsProp;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DpOptimizerTest {

    static Stream<IUpdater> updaters() {
        return Stream.of(new Sgd(0.1), new Adam(1e-2), new Nesterovs(0.05, 0.9), new RmsProp(1e-2));
    }

    @ParameterizedTest
    @MethodSource("updaters")
    void withoutClippingAndNoiseItIsExactlyNetFitInDoublePrecision(IUpdater updater) {
        // The ND4J engine (double precision) repeats DL4J's own operations, and the updater's blocks are applied
        // as DL4J's full update applies them: bit for bit.
        assertStepsMatchFit(DataType.DOUBLE, updater, 0.0);
    }

    @ParameterizedTest
    @MethodSource("updaters")
    void withoutClippingAndNoiseItIsNetFitToFloatRoundingInSinglePrecision(IUpdater updater) {
        // The host engine of float32 networks sums in another order and takes exp from Java: equal to rounding.
        assertStepsMatchFit(DataType.FLOAT, updater, 2e-6);
    }

    private static void assertStepsMatchFit(DataType type, IUpdater updater, double tolerance) {
        MultiLayerNetwork reference = TestNetworks.mlp(type, 7, Activation.RELU, Activation.SOFTMAX,
                LossFunction.MCXENT, updater, 12, 9, 4);
        MultiLayerNetwork privateNet = reference.clone();
        DpOptimizer dp = new DpOptimizer(privateNet, Double.POSITIVE_INFINITY, 0.0, 16,
                SeededNoiseSource.forKey(new NoiseKey(1, "test", 0, 0)));
        for (int step = 0; step < 5; step++) {
            INDArray x = TestNetworks.features(type, 100 + step, 16, 12);
            INDArray y = TestNetworks.oneHot(type, 200 + step, 16, 4);
            reference.fit(new DataSet(x, y));
            dp.step(x, y);
            assertArrayEquals(reference.params().toDoubleVector(), privateNet.params().toDoubleVector(), tolerance,
                    updater + " " + type + " step " + step);
        }
        assertEquals(reference.getIterationCount(), privateNet.getIterationCount());
        assertEquals(reference.score(), privateNet.score(), 1e-6 * Math.abs(reference.score()));
    }

    @Test
    void eachStepReportsItsOwnBatchNormsAndLossWhateverItsSize() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.DOUBLE, 5, Activation.TANH, 12, 9, 4);
        DpOptimizer dp = new DpOptimizer(net, 0.5, 1.0, 8, SeededNoiseSource.forKey(new NoiseKey(3, "test", 0, 0)));
        PerExampleGradients engine = PerExampleGradients.of(net);
        for (int b : new int[]{8, 3, 13, 13, 1}) {   // Poisson batch sizes vary; the optimizer's buffers must follow
            INDArray x = TestNetworks.features(DataType.DOUBLE, 300 + b, b, 12);
            INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 400 + b, b, 4);
            ClippedBatch expected = engine.clippedSum(net.params(), x, y, null, 0.5, Nd4j.create(DataType.DOUBLE, 1, net.numParams()));
            ClippedBatch got = dp.step(x, y);
            assertArrayEquals(expected.norms().toDoubleVector(), got.norms().toDoubleVector(), 1e-12, "batch of " + b);
            assertEquals(expected.lossSums().getDouble(0), got.lossSums().getDouble(0), 1e-12);
            assertEquals(expected.clippedCount(), got.clippedCount());
        }
    }

    @Test
    void noiseHasTheConfiguredScale() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.DOUBLE, 3, Activation.TANH, 100, 200, 10);
        INDArray before = net.params().dup();
        double clip = 2.0, z = 1.5, batch = 4;
        DpOptimizer dp = new DpOptimizer(net, clip, z, batch, SeededNoiseSource.forKey(new NoiseKey(9, "noise", 0, 0)));
        dp.step(Nd4j.create(DataType.DOUBLE, 0, 100), Nd4j.create(DataType.DOUBLE, 0, 10));   // empty Poisson batch
        INDArray change = before.sub(net.params()).muli(batch / 0.1);                          // Sgd(0.1) default
        double std = change.stdNumber().doubleValue();
        assertEquals(z * clip, std, 0.03 * z * clip, "noise std should be z*C before the division");
        assertEquals(0.0, change.meanNumber().doubleValue(), 0.05 * z * clip);
    }

    @Test
    void rejectsInconsistentSettings() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.FLOAT, 3, Activation.TANH, 4, 3, 2);
        SeededNoiseSource noise = SeededNoiseSource.forKey(new NoiseKey(1, "x", 0, 0));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new DpOptimizer(net, Double.POSITIVE_INFINITY, 1.0, 8, noise)).getMessage().contains("clip"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new DpOptimizer(net, 1.0, -1, 8, noise)).getMessage().contains("noise multiplier"));
        assertFalse(assertThrows(IllegalArgumentException.class,
                () -> new DpOptimizer(net, 0.0, 1, 8, noise)).getMessage().isEmpty());
    }

    @Test
    void observersSeeTheMeanGradientAtTheParametersOfTheStepWithoutNoise() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.DOUBLE, 5, Activation.SIGMOID, 6, 5, 3);
        MultiLayerNetwork reference = net.clone();
        DpOptimizer dp = new DpOptimizer(net, Double.POSITIVE_INFINITY, 0.0, 4,
                SeededNoiseSource.forKey(new NoiseKey(2, "test", 0, 0)));
        java.util.List<double[]> released = new java.util.ArrayList<>();
        java.util.List<double[]> at = new java.util.ArrayList<>();
        java.util.List<Long> iterations = new java.util.ArrayList<>();
        dp.addObserver(tap -> {
            released.add(tap.releasedGradient().toDoubleVector());
            at.add(tap.parameters().toDoubleVector());
            iterations.add(tap.iteration());
            assertEquals(0.0, tap.noiseStd());
            assertEquals(4, tap.batchRows());
            assertEquals(4.0, tap.divisor());
        });
        for (int step = 0; step < 2; step++) {
            INDArray x = TestNetworks.features(DataType.DOUBLE, 10 + step, 4, 6);
            INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 20 + step, 4, 3);
            reference.setInput(x);
            reference.setLabels(y);
            reference.computeGradientAndScore();
            double[] mean = reference.getFlattenedGradients().dup().divi(4).toDoubleVector();
            double[] before = reference.params().toDoubleVector();
            reference.fit(new DataSet(x, y));
            dp.step(x, y);
            assertArrayEquals(mean, released.get(step), 1e-12, "step " + step + ": DL4J's gradient of the batch mean");
            assertArrayEquals(before, at.get(step), 0.0, "step " + step + ": the parameters before the update");
        }
        assertEquals(java.util.List.of(0L, 1L), iterations);
    }

    @Test
    void observersSeeTheClippedSumPlusExactlyTheSourcesNoiseOverTheDivisor() {
        MultiLayerNetwork net = TestNetworks.mlp(DataType.DOUBLE, 6, Activation.TANH, 8, 4, 3);
        INDArray x = TestNetworks.features(DataType.DOUBLE, 31, 3, 8);
        INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 32, 3, 3);
        double clip = 0.05;
        INDArray clipped = Nd4j.create(DataType.DOUBLE, 1, net.numParams());
        PerExampleGradients.of(net).clippedSum(net.params(), x, y, null, clip, clipped);
        NoiseKey key = new NoiseKey(3, "dp-sgd", 0, 0);
        DpOptimizer dp = new DpOptimizer(net, clip, 2.0, 2.5, SeededNoiseSource.forKey(key));
        double[][] seen = new double[1][];
        dp.addObserver(tap -> {
            seen[0] = tap.releasedGradient().toDoubleVector();
            assertEquals(2.0 * clip / 2.5, tap.noiseStd(), 1e-15);
        });
        dp.step(x, y);
        INDArray noise = SeededNoiseSource.forKey(key).gaussian(DataType.DOUBLE, 2.0 * clip, 1, net.numParams());
        double[] expected = clipped.add(noise).divi(2.5).toDoubleVector();
        assertArrayEquals(expected, seen[0], 1e-12, "(clipped sum + the source's own draw) / divisor");
    }
}
