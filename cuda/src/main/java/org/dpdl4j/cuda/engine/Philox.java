package org.dpdl4j.cuda.engine;

/** Philox4x32-10 (Salmon et al., SC 2011), as the device's {@code philox4x32} computes it: 32-bit words in Java ints. */
final class Philox {
    private Philox() {
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
