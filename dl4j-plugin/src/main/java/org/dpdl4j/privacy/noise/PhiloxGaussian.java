package org.dpdl4j.privacy.noise;

/**
 * Standard normals from counters: value {@code i} of stream {@code stream} under the 64-bit {@code key} is Box-Muller
 * (cosine branch, in double) of the four words Philox4x32-10 (Salmon et al., SC 2011) makes of the counter
 * {@code (i low, i high, stream low, stream high)}. Any value can be computed on its own, in any order, by any number
 * of threads, and dpdl4j's CUDA engine computes the same values on the GPU to float rounding (its
 * {@code add_philox_gaussian} kernels mirror this arithmetic operation by operation; CUDA's double {@code log} and
 * {@code cos} may differ from Java's in the last bit). Reproducible and fast; predictable to anyone who knows the key:
 * <b>never secure</b>.
 */
final class PhiloxGaussian {
    private PhiloxGaussian() {
    }

    /** Value {@code index} of {@code stream} under {@code key}. */
    static double normal(long key, long stream, long index) {
        int[] c = {(int) index, (int) (index >>> 32), (int) stream, (int) (stream >>> 32)};
        philox4x32(c, (int) key, (int) (key >>> 32));
        // 53-bit uniforms: u1 in (0, 1] (its logarithm is finite), u2 in [0, 1)
        long w1 = ((Integer.toUnsignedLong(c[0]) << 32) | Integer.toUnsignedLong(c[1])) >>> 11;
        long w2 = ((Integer.toUnsignedLong(c[2]) << 32) | Integer.toUnsignedLong(c[3])) >>> 11;
        double u1 = ((double) w1 + 1.0) * 1.1102230246251565e-16;
        double u2 = (double) w2 * 1.1102230246251565e-16;
        return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(6.283185307179586 * u2);
    }

    /** Encrypts the counter {@code c} (4 words, in place) under the key (k0, k1): ten Philox rounds. */
    static void philox4x32(int[] c, int k0, int k1) {
        for (int round = 0; round < 10; round++) {
            long p0 = 0xD2511F53L * Integer.toUnsignedLong(c[0]);
            long p1 = 0xCD9E8D57L * Integer.toUnsignedLong(c[2]);
            int n0 = (int) (p1 >>> 32) ^ c[1] ^ k0;
            int n2 = (int) (p0 >>> 32) ^ c[3] ^ k1;
            c[0] = n0;
            c[1] = (int) p1;
            c[2] = n2;
            c[3] = (int) p0;
            k0 += 0x9E3779B9;
            k1 += 0xBB67AE85;
        }
    }
}
