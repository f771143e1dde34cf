package org.dpdl4j.cuda.engine;

/**
 * Philox4x32-10 (Salmon et al., SC 2011), as the device's {@code philox4x32} computes it: 32-bit words in Java ints;
 * and the normals the kernels make of it. The library's {@code PhiloxNoiseStreams} computes the same values on the
 * host (the engine's core carries no dependency on the library, hence its own copy; tests hold the two equal).
 */
final class Philox {
    private Philox() {
    }

    /** The kernels' {@code philox_normal}: Box-Muller (cosine branch, in double) of counter (j, 0, stream) under seed. */
    static double normal(long seed, long stream, int j) {
        int[] c = {j, 0, (int) stream, (int) (stream >>> 32)};
        philox4x32(c, (int) seed, (int) (seed >>> 32));
        // 53-bit uniforms: u1 in (0, 1] (its logarithm is finite), u2 in [0, 1)
        long w1 = ((Integer.toUnsignedLong(c[0]) << 32) | Integer.toUnsignedLong(c[1])) >>> 11;
        long w2 = ((Integer.toUnsignedLong(c[2]) << 32) | Integer.toUnsignedLong(c[3])) >>> 11;
        double u1 = ((double) w1 + 1.0) * 1.1102230246251565e-16;
        double u2 = (double) w2 * 1.1102230246251565e-16;
        return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(6.283185307179586 * u2);
    }

    /** Encrypts the counter {@code c} (4 words, in place) under the key (k0, k1). */
    static void philox4x32(int[] c, int k0, int k1) {
        for (int round = 0; round < 10; round++) {
            long p0 = 0xD2511F53L * Integer.toUnsignedLong(c[0]);
            long p1 = 0xCD9E8D57L * Integer.toUnsignedLong(c[2]);
            int hi0 = (int) (p0 >>> 32);
            int lo0 = (int) p0;
            int hi1 = (int) (p1 >>> 32);
            int lo1 = (int) p1;
            int n0 = hi1 ^ c[1] ^ k0;
            int n2 = hi0 ^ c[3] ^ k1;
            c[0] = n0;
            c[1] = lo1;
            c[2] = n2;
            c[3] = lo0;
            k0 += 0x9E3779B9;
            k1 += 0xBB67AE85;
        }
    }
}
