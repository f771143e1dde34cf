package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlantedExamplesTest {

    /** Counts how often each planted example is sampled, and adds a fixed vector per sample. */
    private static final class Counting implements PlantedExamples {
        final long[] sampled;
        final INDArray vector;

        Counting(int count, INDArray vector) {
            this.sampled = new long[count];
            this.vector = vector;
        }

        @Override
        public int count() {
            return sampled.length;
        }

        @Override
        public void addClippedGradients(int[] rows, INDArray clippedSum) {
            for (int r : rows) {
                sampled[r]++;
                clippedSum.addi(vector.reshape(clippedSum.shape()));
            }
        }
    }

    private static MultiLayerNetwork net() {
        return TestNetworks.mlp(DataType.DOUBLE, 3, Activation.TANH, Activation.SOFTMAX, LossFunction.MCXENT,
                new Sgd(0.0), 6, 5, 2);
    }

    @Test
    void theStepAddsToTheClippedSumBeforeTheDivision() {
        MultiLayerNetwork a = net();
        MultiLayerNetwork b = a.clone();
        double divisor = 8;
        DpOptimizer plain = new DpOptimizer(a, 1.0, 0.0, divisor, SeededNoiseSource.forKey(new NoiseKey(1, "t", 0, 0)));
        DpOptimizer planted = new DpOptimizer(b, 1.0, 0.0, divisor, SeededNoiseSource.forKey(new NoiseKey(1, "t", 0, 0)));
        INDArray[] released = new INDArray[2];
        plain.addObserver(tap -> released[0] = tap.releasedGradient().dup());
        planted.addObserver(tap -> released[1] = tap.releasedGradient().dup());
        INDArray x = TestNetworks.features(DataType.DOUBLE, 4, 8, 6);
        INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 5, 8, 2);
        INDArray extra = Nd4j.linspace(DataType.DOUBLE, 1, a.numParams(), 1).reshape(1, a.numParams());
        plain.step(x, y);
        planted.step(x, y, null, sum -> sum.addi(extra));
        assertArrayEquals(released[0].add(extra.div(divisor)).toDoubleVector(), released[1].toDoubleVector(), 1e-12);
        // An empty batch still carries the planted contribution.
        planted.step(x.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, 0)),
                y.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, 0)), null, sum -> sum.addi(extra));
        assertArrayEquals(extra.div(divisor).toDoubleVector(), released[1].toDoubleVector(), 1e-12);
    }

    @Test
    void plantedExamplesAreSampledLikeTrainingExamplesAndCountInTheDataSet() {
        int n = 400;
        INDArray x = TestNetworks.features(DataType.DOUBLE, 8, n, 6);
        INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 9, n, 2);
        MultiLayerNetwork net = net();
        Counting planted = new Counting(100, Nd4j.zeros(DataType.DOUBLE, 1, net.numParams()));
        DpSgdConfig cfg = DpSgdConfig.withNoise(1.0, 1.0, 1e-5, 50, 40);
        try (PrivateTrainer t = PrivateTrainer.builder(net, cfg).data(x, y).planted(planted)
                .noise(SeededNoiseSource.forKey(new NoiseKey(2, "t", 0, 0))).sampling(new SplittableRandom(4)).build()) {
            assertEquals(n + 100, t.sampler().datasetSize());
            assertEquals(50.0 / (n + 100), t.sampler().samplingRate(), 1e-15);
            t.fit();
            long steps = t.steps();
            double q = t.sampler().samplingRate();
            long total = 0;
            for (long s : planted.sampled) {
                total += s;
            }
            // 100 canaries x steps x q expected samples; the binomial's standard deviation is about 18.
            double expected = 100 * steps * q;
            assertTrue(Math.abs(total - expected) < 5 * Math.sqrt(expected), total + " vs " + expected);
        }
    }

    @Test
    void plantedExamplesNeedTheDataInMemory() {
        INDArray x = TestNetworks.features(DataType.DOUBLE, 8, 100, 6);
        INDArray y = TestNetworks.oneHot(DataType.DOUBLE, 9, 100, 2);
        MultiLayerNetwork net = net();
        Counting planted = new Counting(10, Nd4j.zeros(DataType.DOUBLE, 1, net.numParams()));
        org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator<org.nd4j.linalg.dataset.DataSet> it =
                new org.deeplearning4j.datasets.iterator.utilty.ListDataSetIterator<>(
                        new org.nd4j.linalg.dataset.DataSet(x, y).asList(), 20);
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> PrivateTrainer.builder(net, DpSgdConfig.withNoise(1.0, 1.0, 1e-5, 10, 1)).streaming(it, 4)
                        .planted(planted).build());
        assertTrue(e.getMessage().contains("instead of streaming"), e.getMessage());
    }

    @Test
    void splitsTheSampleIntoTrainingRowsAndPlantedIndices() {
        int[][] split = PrivateTrainer.splitPlanted(new int[]{0, 3, 9, 10, 12}, 10);
        assertArrayEquals(new int[]{0, 3, 9}, split[0]);
        assertArrayEquals(new int[]{0, 2}, split[1]);
    }
}
