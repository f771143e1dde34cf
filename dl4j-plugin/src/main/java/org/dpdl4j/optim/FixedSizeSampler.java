package org.dpdl4j.optim;

import org.dpdl4j.privacy.accounting.NeighbouringRelation;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Fixed-size batches: each step draws a uniformly random subset of exactly b examples, independently of
 * the other steps (sampling without replacement within a step). This matches the subsampled-RDP bound of
 * Wang, Balle and Kasiviswanathan (replace-one adjacency). Shuffling once per epoch and cutting
 * consecutive batches is a different scheme with no comparable guarantee, so it is not offered.
 *
 * @param datasetSize number of examples N
 * @param batchSize   b, 1 &lt;= b &lt;= N
 */
public record FixedSizeSampler(long datasetSize, int batchSize) implements BatchSampler {
    public FixedSizeSampler {
        if (datasetSize < 1 || datasetSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("dataset size must be between 1 and 2^31-1, got " + datasetSize);
        }
        if (batchSize < 1 || batchSize > datasetSize) {
            throw new IllegalArgumentException("batch size must lie in [1, " + datasetSize + "], got " + batchSize);
        }
    }

    @Override
    public double expectedBatchSize() {
        return batchSize;
    }

    @Override
    public double samplingRate() {
        return (double) batchSize / datasetSize;
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    @Override
    public int[] sample(RandomGenerator random) {
        // Floyd's algorithm: a uniform b-subset with b draws.
        int n = (int) datasetSize;
        Set<Integer> chosen = new HashSet<>(batchSize * 2);
        for (int j = n - batchSize; j < n; j++) {
            int t = random.nextInt(j + 1);
            chosen.add(chosen.contains(t) ? j : t);
        }
        int[] out = chosen.stream().mapToInt(Integer::intValue).toArray();
        Arrays.sort(out);
        return out;
    }
}
