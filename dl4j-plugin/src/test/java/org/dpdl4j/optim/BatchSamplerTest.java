package org.dpdl4j.optim;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatchSamplerTest {

    @Test
    void poissonInclusionIsIndependentWithRateQ() {
        int n = 1000;
        double q = 0.05;
        PoissonSampler s = new PoissonSampler(n, q);
        SplittableRandom r = new SplittableRandom(1);
        int trials = 4000;
        long[] hits = new long[n];
        long total = 0;
        long sumSq = 0;
        int empty = 0;
        for (int t = 0; t < trials; t++) {
            int[] idx = s.sample(r);
            for (int i = 1; i < idx.length; i++) {
                assertTrue(idx[i] > idx[i - 1], "increasing, no repeats");
            }
            for (int i : idx) {
                hits[i]++;
            }
            total += idx.length;
            sumSq += (long) idx.length * idx.length;
            empty += idx.length == 0 ? 1 : 0;
        }
        double mean = (double) total / trials;
        double var = (double) sumSq / trials - mean * mean;
        assertEquals(n * q, mean, 4 * Math.sqrt(n * q * (1 - q) / trials), "batch size mean = Nq");
        assertEquals(n * q * (1 - q), var, 0.1 * n * q * (1 - q), "batch size variance = Nq(1-q)");
        double first = hits[0] / (double) trials, last = hits[n - 1] / (double) trials;
        assertEquals(q, first, 5 * Math.sqrt(q * (1 - q) / trials));
        assertEquals(q, last, 5 * Math.sqrt(q * (1 - q) / trials));
        PoissonSampler tiny = new PoissonSampler(10, 0.01);
        int emptyTiny = 0;
        for (int t = 0; t < 2000; t++) {
            emptyTiny += tiny.sample(r).length == 0 ? 1 : 0;
        }
        assertEquals(Math.pow(0.99, 10), emptyTiny / 2000.0, 0.03, "empty batches happen with probability (1-q)^N");
    }

    @Test
    void fixedSizeDrawsUniformSubsets() {
        FixedSizeSampler s = new FixedSizeSampler(20, 5);
        SplittableRandom r = new SplittableRandom(2);
        long[] hits = new long[20];
        for (int t = 0; t < 20000; t++) {
            int[] idx = s.sample(r);
            assertEquals(5, idx.length);
            for (int i = 1; i < idx.length; i++) {
                assertTrue(idx[i] > idx[i - 1]);
            }
            for (int i : idx) {
                hits[i]++;
            }
        }
        for (long h : hits) {
            assertEquals(20000 * 0.25, h, 5 * Math.sqrt(20000 * 0.25 * 0.75));
        }
    }

    @Test
    void rejectsImpossibleSettings() {
        assertThrows(IllegalArgumentException.class, () -> new PoissonSampler(10, 0));
        assertThrows(IllegalArgumentException.class, () -> new PoissonSampler(10, 1.5));
        assertThrows(IllegalArgumentException.class, () -> PoissonSampler.withExpectedBatchSize(10, 11));
        assertThrows(IllegalArgumentException.class, () -> new FixedSizeSampler(10, 0));
        assertThrows(IllegalArgumentException.class, () -> new FixedSizeSampler(10, 11));
        assertEquals(10, new PoissonSampler(10, 1.0).sample(new SplittableRandom(1)).length);
    }
}
