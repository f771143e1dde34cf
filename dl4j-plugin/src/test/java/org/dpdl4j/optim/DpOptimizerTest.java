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
    void withoutClippingAndNoiseItIsExactlyNetFit(IUpdater updater) {
        for (DataType type : new DataType[]{DataType.FLOAT, DataType.DOUBLE}) {
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
                assertArrayEquals(reference.params().toDoubleVector(), privateNet.params().toDoubleVector(), 0.0,
                        updater + " " + type + " step " + step);
            }
            assertEquals(reference.getIterationCount(), privateNet.getIterationCount());
            assertEquals(reference.score(), privateNet.score(), 1e-6 * Math.abs(reference.score()));
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
}
