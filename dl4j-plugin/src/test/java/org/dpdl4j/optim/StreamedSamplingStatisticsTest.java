package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.deeplearning4j.datasets.iterator.ExistingDataSetIterator;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Streamed batches are Poisson samples of the whole data set: every example is in a step with probability q, batch
 * sizes are Binomial(N, q), an example's inclusions in different steps (across passes too) are uncorrelated, and a
 * seeded stream takes exactly the batches the in-memory source takes.
 */
class StreamedSamplingStatisticsTest {
    private static final int N = 200;
    private static final double BATCH = 20;   // q = 0.1
    private static final int STEPS = 3000;
    private static final int STEPS_PER_PASS = 40;

    /** Features [N, 2] whose first column is the example's index, so that a batch names its examples. */
    private static INDArray indexedFeatures() {
        INDArray x = Nd4j.zeros(DataType.FLOAT, N, 2);
        for (int i = 0; i < N; i++) {
            x.putScalar(i, 0, i);
            x.putScalar(i, 1, 0.5);
        }
        return x;
    }

    /** An iterator of uneven batches (29 does not divide 200), so that steps' rows fall across batch boundaries. */
    private static StreamedExamples streamed(MultiLayerNetwork net) {
        DataSet all = new DataSet(indexedFeatures(), TestNetworks.oneHot(DataType.FLOAT, 1, N, 2));
        return StreamedExamples.open(net, new ExistingDataSetIterator(all.batchBy(29)), STEPS_PER_PASS);
    }

    private static MultiLayerNetwork net() {
        return TestNetworks.mlp(DataType.FLOAT, 1, Activation.TANH, 2, 3, 2);
    }

    private static int[] examplesOf(StepBatch batch) {
        int[] out = new int[batch.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (int) batch.features().getDouble(i, 0);
        }
        return out;
    }

    @Test
    void streamedBatchesArePoissonSamplesOfTheWholeDataSet() {
        BatchSampler sampler = PoissonSampler.withExpectedBatchSize(N, BATCH);
        double q = sampler.samplingRate();
        StreamedExamples source = streamed(net());
        SplittableRandom random = new SplittableRandom(17);
        boolean[][] in = new boolean[STEPS][N];
        double sum = 0;
        double sumSq = 0;
        for (int t = 0; t < STEPS; t++) {
            StepBatch batch = source.next(sampler, random, STEPS - t);
            for (int i : examplesOf(batch)) {
                assertTrue(!in[t][i], "an example at most once per step");
                in[t][i] = true;
            }
            sum += batch.size();
            sumSq += (double) batch.size() * batch.size();
        }
        assertEquals(STEPS / STEPS_PER_PASS, source.passes());

        // Each example's inclusions ~ Binomial(STEPS, q): mean 300, sd 16.4; 5.5 sd either side.
        double sd = Math.sqrt(STEPS * q * (1 - q));
        for (int i = 0; i < N; i++) {
            int count = 0;
            for (int t = 0; t < STEPS; t++) {
                count += in[t][i] ? 1 : 0;
            }
            assertEquals(STEPS * q, count, 5.5 * sd, "example " + i + " (first, last and batch-boundary ones included)");
        }

        // Batch sizes ~ Binomial(N, q): mean 20 (its estimate's sd 0.08), variance 18 (its estimate's sd about 0.5);
        // fixed-size batches would have variance 0.
        double mean = sum / STEPS;
        double variance = (sumSq - STEPS * mean * mean) / (STEPS - 1);
        assertEquals(N * q, mean, 0.4, "mean batch size");
        assertEquals(N * q * (1 - q), variance, 3.0, "variance of the batch size");

        // An example's inclusion in one step says nothing of the next step (same pass or next) nor of the step a pass
        // later: pooled correlations over about 600,000 pairs, whose sd is about 0.0013.
        for (int lag : new int[]{1, 2, STEPS_PER_PASS - 1, STEPS_PER_PASS}) {
            double r = correlation(in, lag);
            assertEquals(0, r, 0.01, "correlation of inclusions " + lag + " steps apart");
        }
    }

    /** Pearson correlation of I[t][i] and I[t + lag][i], pooled over examples and steps. */
    private static double correlation(boolean[][] in, int lag) {
        double n = 0;
        double sa = 0;
        double sb = 0;
        double sab = 0;
        for (int t = 0; t + lag < in.length; t++) {
            for (int i = 0; i < N; i++) {
                int a = in[t][i] ? 1 : 0;
                int b = in[t + lag][i] ? 1 : 0;
                n++;
                sa += a;
                sb += b;
                sab += a * b;
            }
        }
        double ma = sa / n;
        double mb = sb / n;
        return (sab / n - ma * mb) / Math.sqrt(ma * (1 - ma) * mb * (1 - mb));
    }

    private static double[] values(INDArray a) {
        return a == null ? new double[0] : a.reshape(a.length()).toDoubleVector();
    }

    @Test
    void aSeededStreamTakesTheBatchesTheInMemorySourceTakes() {
        MultiLayerNetwork net = net();
        INDArray x = indexedFeatures();
        HeldExamples held = new HeldExamples(TrainingExamples.of(net, x, TestNetworks.oneHot(DataType.FLOAT, 1, N, 2)));
        for (BatchSampler sampler : new BatchSampler[]{PoissonSampler.withExpectedBatchSize(N, BATCH),
                new FixedSizeSampler(N, 20)}) {
            StreamedExamples source = streamed(net);
            SplittableRandom a = new SplittableRandom(4);
            SplittableRandom b = new SplittableRandom(4);
            for (int t = 0; t < 100; t++) {
                StepBatch s = source.next(sampler, a, 100 - t);
                StepBatch h = held.next(sampler, b, 100 - t);
                assertArrayEquals(examplesOf(h), examplesOf(s), sampler + ", step " + t);
                assertArrayEquals(values(h.labels()), values(s.labels()), 0.0);
                assertArrayEquals(values(h.featureSquaredNorms()), values(s.featureSquaredNorms()), 0.0);
            }
            assertEquals(3, source.passes(), "ceil(100 / 40) passes");
        }
    }
}
