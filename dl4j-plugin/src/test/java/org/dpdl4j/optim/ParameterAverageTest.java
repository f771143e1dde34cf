package org.dpdl4j.optim;

import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.BaseTrainingListener;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParameterAverageTest {
    private static MultiLayerNetwork net() {
        return TestNetworks.mlp(DataType.DOUBLE, 5, Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT, new Sgd(0.5), 6, 4, 3);
    }

    /** Every step's parameters, as the private trainer leaves them. */
    private static final class Iterates extends BaseTrainingListener {
        final List<double[]> seen = new ArrayList<>();

        @Override
        public void iterationDone(Model model, int iteration, int epoch) {
            seen.add(model.params().dup().data().asDouble());
        }
    }

    @Test
    void holdsTheNormalisedExponentialAverageOfThePrivateTrainersIterates() {
        MultiLayerNetwork net = net();
        Iterates iterates = new Iterates();
        ParameterAverage average = ParameterAverage.exponential(0.9);
        ParameterAverage last = ParameterAverage.exponential(0);
        net.addListeners(iterates, average, last);
        INDArray x = TestNetworks.features(DataType.DOUBLE, 2, 300, 6);
        INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 3, 300, 3);
        try (PrivateTrainer trainer = PrivateTrainer.create(net, DpSgdConfig.withNoise(1.0, 1.0, 1e-5, 50, 2), x, y,
                SeededNoiseSource.forKey(new NoiseKey(1, "t", 0, 0)), new SplittableRandom(3))) {
            trainer.fitEpoch();
            trainer.fitEpoch();
        }
        int t = iterates.seen.size();
        assertTrue(t >= 10, "steps " + t);
        assertEquals(t, average.steps());
        double[] expected = new double[iterates.seen.get(0).length];
        double weights = 0;
        for (int i = 0; i < t; i++) {
            double w = Math.pow(0.9, t - 1 - i);
            weights += w;
            for (int j = 0; j < expected.length; j++) {
                expected[j] += w * iterates.seen.get(i)[j];
            }
        }
        for (int j = 0; j < expected.length; j++) {
            expected[j] /= weights;
        }
        assertArrayEquals(expected, average.parameters().data().asDouble(), 1e-12);
        assertArrayEquals(net.params().dup().data().asDouble(), last.parameters().data().asDouble(), 0.0, "decay 0: the last iterate");

        double[] before = net.params().dup().data().asDouble();
        MultiLayerNetwork averaged = average.copyOf(net);
        assertArrayEquals(expected, averaged.params().dup().data().asDouble(), 1e-12);
        assertArrayEquals(before, net.params().dup().data().asDouble(), 0.0, "the trained network is left as it is");
        INDArray out = averaged.output(x.getRows(0, 1, 2));
        assertEquals(3, out.size(0));
    }

    @Test
    void refusesDecaysOutsideTheUnitIntervalAndReadingBeforeAnyStep() {
        assertThrows(IllegalArgumentException.class, () -> ParameterAverage.exponential(1.0));
        assertThrows(IllegalArgumentException.class, () -> ParameterAverage.exponential(-0.1));
        assertThrows(IllegalArgumentException.class, () -> ParameterAverage.exponential(Double.NaN));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ParameterAverage.exponential(0.5).parameters());
        assertTrue(e.getMessage().contains("listeners"), e.getMessage());
        ParameterAverage a = ParameterAverage.exponential(0.5);
        a.record(net().params());
        IllegalStateException other = assertThrows(IllegalStateException.class,
                () -> a.record(TestNetworks.mlp(DataType.DOUBLE, 5, Activation.TANH, 6, 2).params()));
        assertTrue(other.getMessage().contains("one ParameterAverage per network"), other.getMessage());
    }
}
