package org.dpdl4j.privacy.noise;

/**
 * Standard normals from random 64-bit words: Marsaglia's polar method, with two independent normals
 * combined per output as a mitigation against floating-point attacks.
 *
 * <p>Why the combination: a Gaussian sample computed in floating point does not cover the reals
 * uniformly; its set of reachable values has gaps whose pattern, once the sample is added to a secret,
 * can reveal the secret (Mironov 2012 showed this for the Laplace mechanism; Holohan and Braghin 2021
 * for Gaussian samplers). Summing independently generated normals (here two, scaled by 1/sqrt(2) to
 * keep unit variance) fills those gaps - the mitigation their paper proposes and Opacus's secure mode
 * uses. It is a mitigation, not a proof: the released value is still a floating-point number. The two
 * normals of an output come from different polar pairs (the two outputs of one pair share a radius).
 * Uniforms carry 53 random bits, so the logarithm's tail is not cut at 2^-32 as with 32-bit uniforms.
 */
final class PolarNormals {
    private static final double INV_SQRT2 = 1.0 / Math.sqrt(2.0);
    private static final double TWO_POW_MINUS_52 = 0x1.0p-52;

    private long[] words = new long[0];
    private double[] normals = new double[0];

    /** Fills {@code out[0, n)} with standard normals drawn from {@code stream}. */
    void fill(KeyStream stream, double[] out, int n) {
        int m = n + (n & 1);            // even, so outputs k and m+k never share a polar pair
        int needed = 2 * m;
        if (normals.length < needed) {
            normals = new double[needed];
        }
        int made = 0;
        while (made < needed) {
            // Each attempt takes two words; 4/pi attempts per pair on average. Draw a little extra.
            int words = (int) Math.min(Integer.MAX_VALUE - 8, (long) ((needed - made) * 1.3) + 16);
            made = polar(stream, words, made, needed);
        }
        for (int k = 0; k < n; k++) {
            out[k] = (normals[k] + normals[m + k]) * INV_SQRT2;
        }
    }

    private int polar(KeyStream stream, int count, int made, int needed) {
        count &= ~1;
        if (words.length < count) {
            words = new long[count];
        }
        stream.nextLongs(words, count);
        for (int i = 0; i < count && made < needed; i += 2) {
            double u = (words[i] >>> 11) * TWO_POW_MINUS_52 - 1.0;      // uniform on a 2^-52 grid in [-1, 1)
            double v = (words[i + 1] >>> 11) * TWO_POW_MINUS_52 - 1.0;
            double s = u * u + v * v;
            if (s >= 1.0 || s == 0.0) {
                continue;
            }
            double f = Math.sqrt(-2.0 * Math.log(s) / s);
            normals[made++] = u * f;
            if (made < needed) {
                normals[made++] = v * f;
            }
        }
        return made;
    }
}
