package org.dpdl4j.data;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Independent, reproducible random streams keyed by (master seed, purpose, index).
 *
 * <p>Every random choice of this module (shuffles, splits, partitions, generated data) draws from
 * its own stream, so adding a draw in one place never changes another place's result, and two
 * programs that ask for the same key get the same numbers. {@link SplittableRandom}'s algorithm is
 * fully specified, so streams are identical across JVMs.
 */
public final class RandomStreams {
    private RandomStreams() {
    }

    /** A fresh generator for the given key. */
    public static SplittableRandom stream(long seed, String purpose, long index) {
        long h = mix(seed + 0x9E3779B97F4A7C15L);
        h = mix(h ^ purposeHash(purpose));
        h = mix(h ^ (index * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL));
        return new SplittableRandom(h);
    }

    /** A uniformly random permutation of 0..n-1 (Fisher-Yates). */
    public static int[] permutation(int n, RandomGenerator rng) {
        int[] p = identity(n);
        shuffle(p, rng);
        return p;
    }

    /** Shuffles the array in place, uniformly (Fisher-Yates). */
    public static void shuffle(int[] a, RandomGenerator rng) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /** The array 0, 1, ..., n-1. */
    public static int[] identity(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("the number of elements must be at least 0, got " + n);
        }
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        return p;
    }

    private static long purposeHash(String purpose) {
        long h = 0xCBF29CE484222325L; // FNV-1a over the UTF-8 bytes, then mixed
        for (byte b : purpose.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= 0x100000001B3L;
        }
        return mix(h);
    }

    /** The SplitMix64 finaliser: a bijection that spreads every input bit over the output. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
