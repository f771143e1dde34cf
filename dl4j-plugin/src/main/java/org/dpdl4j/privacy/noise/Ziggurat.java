package org.dpdl4j.privacy.noise;

/**
 * Standard normals from random 64-bit words by the ziggurat method (Marsaglia and Tsang 2000) in
 * Doornik's ZIGNOR form (2005): 128 boxes, the box index and the uniform taken from disjoint bits of
 * each word, so they are independent. About 97.5% of draws cost one word, one multiplication and one
 * comparison; the rest fall in a wedge (two exponentials) or the tail (logarithms, exact by rejection).
 * The output distribution is exactly normal up to the 53-bit resolution of the uniforms.
 */
final class Ziggurat {
    private static final int BOXES = 128;
    private static final double R = 3.442619855899;          // start of the tail
    private static final double V = 9.91256303526217e-3;     // area of each box
    private static final double TWO_POW_MINUS_52 = 0x1.0p-52;
    private static final double TWO_POW_MINUS_53 = 0x1.0p-53;
    private static final double[] X = new double[BOXES + 1];
    private static final double[] RATIO = new double[BOXES];

    static {
        double f = Math.exp(-0.5 * R * R);
        X[0] = V / f;                     // the bottom box extends to V / f(R)
        X[1] = R;
        X[BOXES] = 0;
        for (int i = 2; i < BOXES; i++) {
            X[i] = Math.sqrt(-2 * Math.log(V / X[i - 1] + f));
            f = Math.exp(-0.5 * X[i] * X[i]);
        }
        for (int i = 0; i < BOXES; i++) {
            RATIO[i] = X[i + 1] / X[i];
        }
    }

    private final KeyStream stream;
    private final long[] words = new long[4096];
    private int next = words.length;

    Ziggurat(KeyStream stream) {
        this.stream = stream;
    }

    private long word() {
        if (next == words.length) {
            refill();
        }
        return words[next++];
    }

    private void refill() {
        stream.nextLongs(words, words.length);
        next = 0;
    }

    /** A uniform in (0, 1], 53 random bits. */
    private double uniformOpenZero() {
        return ((word() >>> 11) + 1) * TWO_POW_MINUS_53;
    }

    /** One standard normal. */
    double next() {
        long w = word();
        double u = (w >>> 11) * TWO_POW_MINUS_52 - 1.0;   // uniform on [-1, 1), bits 11..63
        int i = (int) (w & (BOXES - 1));                    // box, bits 0..6
        return Math.abs(u) < RATIO[i] ? u * X[i] : rejected(u, i);
    }

    /**
     * Writes {@code count} standard normals into {@code out[from, from + count)}: the same values, consumed from the
     * stream in the same order, as {@code count} calls of {@link #next()}. The accepted-at-once case (about 97.5% of
     * draws, one word each) runs in a tight loop over the word buffer; a call per draw costs several times more.
     */
    void fill(double[] out, int from, int count) {
        int i = from;
        int end = from + count;
        while (i < end) {
            if (next == words.length) {
                refill();
            }
            int j = next;
            int m = Math.min(words.length - j, end - i);   // fast-path draws this buffer can serve, one word each
            // One induction variable and an early exit: the JIT removes the bounds checks from this loop.
            int k = 0;
            for (; k < m; k++) {
                long w = words[j + k];
                double u = (w >>> 11) * TWO_POW_MINUS_52 - 1.0;
                int box = (int) (w & (BOXES - 1));
                if (!(Math.abs(u) < RATIO[box])) {
                    break;
                }
                out[i + k] = u * X[box];
            }
            i += k;
            next = j + k;
            if (k < m) {
                long w = words[next++];
                out[i++] = rejected((w >>> 11) * TWO_POW_MINUS_52 - 1.0, (int) (w & (BOXES - 1)));   // may draw more words
            }
        }
    }

    /**
     * The rest of a draw whose first word fell outside its box's inner rectangle: the tail, or the wedge test, or
     * (about half the time) a fresh draw. The retries recurse; each is needed with probability about 1.2%.
     */
    private double rejected(double u, int box) {
        if (box == 0) {
            return tail(u < 0);
        }
        double x = u * X[box];
        double f0 = Math.exp(-0.5 * (X[box] * X[box] - x * x));
        double f1 = Math.exp(-0.5 * (X[box + 1] * X[box + 1] - x * x));
        if (f1 + uniformOpenZero() * (f0 - f1) < 1.0) {
            return x;
        }
        return next();
    }

    /** Marsaglia's exact tail sampler beyond R. */
    private double tail(boolean negative) {
        double x;
        double y;
        do {
            x = Math.log(uniformOpenZero()) / R;
            y = Math.log(uniformOpenZero());
        } while (-2 * y < x * x);
        return negative ? x - R : R - x;
    }
}
