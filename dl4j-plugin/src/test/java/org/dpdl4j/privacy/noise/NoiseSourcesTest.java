package org.dpdl4j.privacy.noise;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NoiseSourcesTest {
    private static final int N = 1_000_001;

    /** Mean, variance, skewness-free checks and the fourth moment of a normal sample. */
    private static void assertNormal(INDArray z, double std) {
        double[] v = z.castTo(DataType.DOUBLE).toDoubleVector();
        double m = 0, m2 = 0, m4 = 0;
        for (double x : v) {
            m += x;
        }
        m /= v.length;
        for (double x : v) {
            double d = (x - m) / std;
            m2 += d * d;
            m4 += d * d * d * d;
        }
        m2 /= v.length;
        m4 /= v.length;
        double se = 1 / Math.sqrt(v.length);
        assertEquals(0.0, m / std, 5 * se, "mean");
        assertEquals(1.0, m2, 5 * Math.sqrt(2) * se, "variance");
        assertEquals(3.0, m4, 5 * Math.sqrt(96) * se, "fourth moment (normal: 3)");
        long beyond3 = 0;
        for (double x : v) {
            if (Math.abs(x - m) > 3 * std) {
                beyond3++;
            }
        }
        double expected = 0.0026997960632601866 * v.length;
        assertEquals(expected, beyond3, 5 * Math.sqrt(expected), "tail mass beyond 3 sigma");
        long beyond35 = 0;
        for (double x : v) {
            if (Math.abs(x - m) > 3.5 * std) {
                beyond35++;
            }
        }
        double expected35 = 4.6525762922634e-4 * v.length;   // 2 (1 - Phi(3.5)): the ziggurat's tail sampler
        assertEquals(expected35, beyond35, 5 * Math.sqrt(expected35), "tail mass beyond 3.5 sigma");
        double[] sorted = v.clone();
        java.util.Arrays.sort(sorted);
        double ks = 0;
        for (int i = 0; i < sorted.length; i++) {
            double cdf = phi(sorted[i] / std);
            ks = Math.max(ks, Math.max(Math.abs(cdf - (double) i / sorted.length), Math.abs(cdf - (i + 1.0) / sorted.length)));
        }
        assertTrue(ks < 1.63 / Math.sqrt(sorted.length), "Kolmogorov-Smirnov distance " + ks + " (1% critical value "
                + 1.63 / Math.sqrt(sorted.length) + ")");
    }

    /** Standard normal CDF (Abramowitz-Stegun 7.1.26 is too coarse; use the complementary error function series). */
    private static double phi(double x) {
        return 0.5 * erfc(-x / Math.sqrt(2));
    }

    /** erfc with relative error below 1.2e-7 (Numerical Recipes' Chebyshev fit). */
    private static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
                + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }

    /**
     * A fixed key: the Kolmogorov-Smirnov check fails 1% of samples by design, so a key from SecureRandom would make the
     * test fail once in a hundred runs. Sources keyed from SecureRandom run the same sampler on the same ciphers.
     */
    private static byte[] fixedKey() {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (17 * i + 3);
        }
        return key;
    }

    @Test
    void secureSourceIsStandardNormalTimesStd() {
        INDArray z = SecureNoiseSource.withKey(fixedKey(), 1).gaussian(DataType.DOUBLE, 2.5, N);
        assertNormal(z, 2.5);
    }

    @Test
    void chaCha20VariantIsStandardNormalToo() {
        assertNormal(SecureNoiseSource.withKey(StreamCipher.CHACHA20, fixedKey(), 1).gaussian(DataType.DOUBLE, 1.5, N), 1.5);
    }

    @Test
    void seededSourceIsStandardNormalTimesStd() {
        INDArray z = SeededNoiseSource.forKey(new NoiseKey(3, "t", 0, 0)).gaussian(DataType.FLOAT, 0.7, N);
        assertNormal(z, 0.7);
    }

    @Test
    void sharedKeyGivesIdenticalStreamsAndStreamIdsSeparateThem() {
        byte[] key = new byte[32];
        key[3] = 42;
        INDArray a = SecureNoiseSource.withKey(key, 7).gaussian(DataType.DOUBLE, 1.0, 1001);
        INDArray b = SecureNoiseSource.withKey(key.clone(), 7).gaussian(DataType.DOUBLE, 1.0, 1001);
        INDArray c = SecureNoiseSource.withKey(key, 8).gaussian(DataType.DOUBLE, 1.0, 1001);
        assertArrayEquals(a.toDoubleVector(), b.toDoubleVector(), 0.0);
        assertFalse(a.equalsWithEps(c, 1e-3));
        key[0] = 1;
        INDArray d = SecureNoiseSource.withKey(key, 7).gaussian(DataType.DOUBLE, 1.0, 1001);
        assertFalse(a.equalsWithEps(d, 1e-3));
    }

    @Test
    void seededStreamsAreReproducibleAndKeyedByEveryField() {
        NoiseKey k = new NoiseKey(1, "private-noise", 3, 10);
        INDArray a = SeededNoiseSource.forKey(k).gaussian(DataType.DOUBLE, 1.0, 100);
        assertArrayEquals(a.toDoubleVector(), SeededNoiseSource.forKey(k).gaussian(DataType.DOUBLE, 1.0, 100).toDoubleVector(), 0.0);
        for (NoiseKey other : new NoiseKey[]{new NoiseKey(2, "private-noise", 3, 10), new NoiseKey(1, "pairwise", 3, 10),
                new NoiseKey(1, "private-noise", 4, 10), k.atRound(11)}) {
            assertFalse(a.equalsWithEps(SeededNoiseSource.forKey(other).gaussian(DataType.DOUBLE, 1.0, 100), 1e-3), other.toString());
        }
    }

    @Test
    void consecutiveDrawsNeverRepeat() {
        SecureNoiseSource s = SecureNoiseSource.fromSecureRandom();
        INDArray a = s.gaussian(DataType.DOUBLE, 1, 64);
        INDArray b = s.gaussian(DataType.DOUBLE, 1, 64);
        assertFalse(a.equalsWithEps(b, 1e-3));
    }

    @Test
    void addsInPlaceToViewsOfAnyShape() {
        INDArray base = Nd4j.zeros(DataType.FLOAT, 6, 8);
        INDArray view = base.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(1, 3), org.nd4j.linalg.indexing.NDArrayIndex.all());
        SecureNoiseSource.fromSecureRandom().addGaussian(view, 1.0);
        assertEquals(0.0, base.getRow(0).norm2Number().doubleValue(), 0.0);
        assertTrue(base.getRow(1).norm2Number().doubleValue() > 0);
        assertEquals(0.0, base.getRow(5).norm2Number().doubleValue(), 0.0);
    }

    @Test
    void writeOverwritesWithExactlyWhatAddPutsOnZeros() {
        byte[] key = new byte[32];
        key[5] = 9;
        for (DataType type : new DataType[]{DataType.FLOAT, DataType.DOUBLE, DataType.HALF}) {
            // whole array, contiguous row view (written in place), column view (not contiguous: the fallback)
            INDArray base = Nd4j.valueArrayOf(new long[]{5, 7}, 3.0, type);
            INDArray[] targets = {Nd4j.valueArrayOf(new long[]{4, 6}, -2.0, type), base.getRow(0), base.getRow(2), base.getColumn(3)};
            for (INDArray target : targets) {
                INDArray expected = Nd4j.zeros(type, target.shape());
                SecureNoiseSource.withKey(key, 1).addGaussian(expected, 0.5);
                SecureNoiseSource.withKey(key, 1).writeGaussian(target, 0.5);
                assertArrayEquals(expected.ravel().toDoubleVector(), target.ravel().toDoubleVector(), 0.0, type + " " + java.util.Arrays.toString(target.shape()));
                INDArray seeded = Nd4j.zeros(type, target.shape());
                SeededNoiseSource.forKey(new NoiseKey(1, "p", 0, 0)).addGaussian(seeded, 2.0);
                SeededNoiseSource.forKey(new NoiseKey(1, "p", 0, 0)).writeGaussian(target, 2.0);
                assertArrayEquals(seeded.ravel().toDoubleVector(), target.ravel().toDoubleVector(), 0.0);
            }
            // elements outside the views are untouched
            assertEquals(3.0, base.getDouble(1, 0), 0.0);
            assertEquals(3.0, base.getDouble(1, 6), 0.0);
            assertEquals(3.0, base.getDouble(3, 6), 0.0);
            assertEquals(3.0, base.getDouble(4, 2), 0.0);
            SecureNoiseSource.fromSecureRandom().writeGaussian(base, 0.0);
            assertEquals(0.0, base.norm2Number().doubleValue(), 0.0, "std 0 writes zeros");
        }
    }

    @Test
    void longDrawsAreTheStreamsNormalsScaledBlockAfterBlock() {
        byte[] key = new byte[32];
        key[7] = 3;
        int n = 10_000;   // several blocks of the sampler
        double[] z = SecureNoiseSource.withKey(key, 4).standardNormals(n).toDoubleVector();
        INDArray rows = Nd4j.valueArrayOf(new long[]{3, n}, 5.0, DataType.FLOAT);
        SecureNoiseSource.withKey(key, 4).writeGaussian(rows.getRow(1), 0.5);
        INDArray doubles = Nd4j.valueArrayOf(new long[]{1, n}, 1.0, DataType.DOUBLE);
        SecureNoiseSource.withKey(key, 4).addGaussian(doubles, 2.0);
        for (int k = 0; k < n; k++) {
            assertEquals((float) (0.5 * z[k]), rows.getFloat(1, k), 0f, "written, element " + k);
            assertEquals(1.0 + 2.0 * z[k], doubles.getDouble(0, k), 0.0, "added, element " + k);
            assertEquals(5f, rows.getFloat(0, k), 0f);
            assertEquals(5f, rows.getFloat(2, k), 0f);
        }
    }

    @Test
    void writtenDrawsThatRoundToZeroArePositiveZeroAsWhenAddedToZeros() {
        INDArray target = Nd4j.valueArrayOf(new long[]{2, 3000}, 9.0, DataType.FLOAT);
        SeededNoiseSource.forKey(new NoiseKey(3, "tiny", 0, 0)).writeGaussian(target, 1e-300);   // every std * z underflows in float
        for (float v : target.ravel().toFloatVector()) {
            assertEquals(0, Float.floatToRawIntBits(v), "+0.0f, never -0.0f");
        }
    }

    @Test
    void streamsWriteRowsAsTheyAddThem() {
        INDArray added = Nd4j.zeros(DataType.FLOAT, 3, 50);
        INDArray written = Nd4j.ones(DataType.FLOAT, 3, 50);
        SeededNoiseStreams seeded = new SeededNoiseStreams(4);
        seeded.addPairwiseNoise(added, 2, 1.5);
        seeded.writePairwiseNoise(written, 2, 1.5);
        assertArrayEquals(added.ravel().toDoubleVector(), written.ravel().toDoubleVector(), 0.0);
        // the row-by-row default of the interface (what secure streams use)
        NoiseStreams rows = new RowByRowStreams(seeded, true);
        added.assign(0);
        written.assign(7);
        rows.addPrivateNoise(added, 3, 0.25);
        rows.writePrivateNoise(written, 3, 0.25);
        assertArrayEquals(added.ravel().toDoubleVector(), written.ravel().toDoubleVector(), 0.0);
    }

    @Test
    void rejectsBadStd() {
        INDArray t = Nd4j.zeros(DataType.FLOAT, 3);
        NoiseSource s = SecureNoiseSource.fromSecureRandom();
        assertThrows(IllegalArgumentException.class, () -> s.addGaussian(t, -1));
        assertThrows(IllegalArgumentException.class, () -> s.addGaussian(t, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> s.addGaussian(t, Double.POSITIVE_INFINITY));
        s.addGaussian(t, 0.0);
        assertEquals(0.0, t.norm2Number().doubleValue(), 0.0);
    }
}
