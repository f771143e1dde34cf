package org.dpdl4j.cli.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * Times two operations in the same run, interleaved in blocks (A, B, A, B, ...) so that drift of the
 * machine affects both alike, and reports the median time per operation of each and their ratio.
 */
final class PairedTiming {
    private PairedTiming() {
    }

    /** The medians over blocks (milliseconds per operation) and the ratio B / A. */
    record Result(String nameA, double msA, String nameB, double msB) {
        double ratio() {
            return msB / msA;
        }

        String format() {
            return String.format(Locale.ROOT, "%s: %.3f ms   %s: %.3f ms   ratio %s/%s = %.3f", nameA, msA, nameB, msB, nameB, nameA, ratio());
        }
    }

    static Result measure(String nameA, Runnable a, String nameB, Runnable b, int warmup, int blocks, int perBlock) {
        for (int i = 0; i < warmup; i++) {
            a.run();
            b.run();
        }
        double[] ta = new double[blocks];
        double[] tb = new double[blocks];
        for (int k = 0; k < blocks; k++) {
            ta[k] = time(a, perBlock);
            tb[k] = time(b, perBlock);
        }
        return new Result(nameA, median(ta), nameB, median(tb));
    }

    static double time(Runnable r, int times) {
        long t0 = System.nanoTime();
        for (int i = 0; i < times; i++) {
            r.run();
        }
        return (System.nanoTime() - t0) / 1e6 / times;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
    }
}
