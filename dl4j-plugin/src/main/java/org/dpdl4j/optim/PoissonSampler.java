package org.dpdl4j.optim;

import org.dpdl4j.privacy.accounting.NeighbouringRelation;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Poisson sampling: every example joins each step's batch independently with probability q, so batch
 * sizes vary (and can be 0). This is the scheme the sampled Gaussian mechanism's RDP analysis assumes
 * (add/remove adjacency). Draws cost O(batch) by skipping geometric gaps between selected examples.
 *
 * @param datasetSize number of examples N
 * @param rate        sampling probability q in (0, 1]
 */
public record PoissonSampler(long datasetSize, double rate) implements BatchSampler {
    public PoissonSampler {
        if (datasetSize < 1 || datasetSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("dataset size must be between 1 and 2^31-1, got " + datasetSize);
        }
        if (!(rate > 0 && rate <= 1)) {
            throw new IllegalArgumentException("Poisson sampling rate must lie in (0, 1], got " + rate
                    + " (rate = expected batch size / dataset size)");
        }
    }

    /** The rate that gives {@code expectedBatchSize} examples per step on average. */
    public static PoissonSampler withExpectedBatchSize(long datasetSize, double expectedBatchSize) {
        if (!(expectedBatchSize > 0) || expectedBatchSize > datasetSize) {
            throw new IllegalArgumentException("expected batch size must lie in (0, " + datasetSize + "], got " + expectedBatchSize);
        }
        return new PoissonSampler(datasetSize, expectedBatchSize / datasetSize);
    }

    @Override
    public double expectedBatchSize() {
        return rate * datasetSize;
    }

    @Override
    public double samplingRate() {
        return rate;
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.ADD_OR_REMOVE_ONE;
    }

    @Override
    public int[] sample(RandomGenerator random) {
        int n = (int) datasetSize;
        if (rate == 1.0) {
            int[] all = new int[n];
            Arrays.setAll(all, i -> i);
            return all;
        }
        double logKeep = Math.log1p(-rate);
        int[] out = new int[Math.max(16, (int) Math.min(n, 2 * expectedBatchSize() + 16))];
        int count = 0;
        long index = -1;
        while (true) {
            // Gap before the next selected example ~ Geometric(q) on {0, 1, ...}: floor(ln U / ln(1-q)), U in (0, 1].
            double u = 1.0 - random.nextDouble();
            index += 1 + (long) Math.floor(Math.log(u) / logKeep);
            if (index >= n) {
                return Arrays.copyOf(out, count);
            }
            if (count == out.length) {
                out = Arrays.copyOf(out, Math.min(n, out.length * 2));
            }
            out[count++] = (int) index;
        }
    }
}
