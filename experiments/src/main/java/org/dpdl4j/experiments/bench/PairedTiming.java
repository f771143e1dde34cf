package org.dpdl4j.experiments.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * Times two operations in the same run, interleaved in blocks (A, B, A, B, ...) so that drift of the
 * machine affects both alike, and reports the median time per operation of each and their ratio.
 *
 * <p>Timing starts in the steady state. The JIT compilers keep compiling ND4J's Java layer for many seconds, and
 * on a small machine their threads take a core's share from whichever operation runs beside them: an operation
 * that keeps a second thread busy (a look-ahead noise draw) then looks slower than it is in a long run. So the
 * warm-up runs at least the requested number of operations and then goes on until the compilers spent less
 * than {@link #SETTLED_JIT_SHARE} of a warm-up slice compiling (or until {@link #MAX_WARMUP_NANOS}).
 */
public final class PairedTiming {
    /** Share of wall time spent compiling below which the JIT counts as settled. */
    public static final double SETTLED_JIT_SHARE = 0.02;
    /** Length of one warm-up slice whose compile time is checked. */
    public static final long SLICE_NANOS = 2_000_000_000L;
    /** Cap on the warm-up; the printed share then shows how far from settled the timing started. */
    public static final long MAX_WARMUP_NANOS = 120_000_000_000L;

    private PairedTiming() {
    }

    /** How the warm-up ended: operations of each kind, seconds, and the JIT's share of the last slice (NaN if unknown). */
    public record Warmup(int runs, double seconds, double jitShare) {
        public String format() {
            String jit = Double.isNaN(jitShare) ? "JIT compile time not measured"
                    : String.format(Locale.ROOT, "JIT compiling %.1f%% of the last slice", 100 * jitShare);
            return String.format(Locale.ROOT, "warm-up: %d of each, %.1f s, %s", runs, seconds, jit);
        }
    }

    /** The medians over blocks (milliseconds per operation) and the ratio B / A. */
    public record Result(String nameA, double msA, String nameB, double msB) {
        public double ratio() {
            return msB / msA;
        }

        public String format() {
            return String.format(Locale.ROOT, "%s: %.3f ms   %s: %.3f ms   ratio %s/%s = %.3f", nameA, msA, nameB, msB, nameB, nameA, ratio());
        }
    }

    public static Result measure(String nameA, Runnable a, String nameB, Runnable b, int warmup, int blocks, int perBlock) {
        System.out.println(warmUp(a, b, warmup).format());
        double[] ta = new double[blocks];
        double[] tb = new double[blocks];
        for (int k = 0; k < blocks; k++) {
            ta[k] = timeBlock(a, perBlock);
            tb[k] = timeBlock(b, perBlock);
        }
        return new Result(nameA, median(ta), nameB, median(tb));
    }

    /**
     * Runs A and B alternately at least {@code minRuns} times each, then in slices of {@link #SLICE_NANOS} until a slice
     * in which the JIT compiled for less than {@link #SETTLED_JIT_SHARE} of it, or {@link #MAX_WARMUP_NANOS} in all.
     */
    public static Warmup warmUp(Runnable a, Runnable b, int minRuns) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean measurable = jit != null && jit.isCompilationTimeMonitoringSupported();
        return warmUp(a, b, minRuns, SLICE_NANOS, MAX_WARMUP_NANOS, measurable ? jit::getTotalCompilationTime : null);
    }

    /** As above, with the JIT's accumulated compile time in milliseconds from {@code compiledMillis} (null: not measurable). */
    public static Warmup warmUp(Runnable a, Runnable b, int minRuns, long sliceNanos, long maxNanos, java.util.function.LongSupplier compiledMillis) {
        boolean measurable = compiledMillis != null;
        long start = System.nanoTime();
        int runs = 0;
        for (; runs < minRuns; runs++) {
            a.run();
            b.run();
        }
        double share = Double.NaN;
        while (measurable && System.nanoTime() - start < maxNanos) {
            long sliceStart = System.nanoTime();
            long compiledBefore = compiledMillis.getAsLong();
            do {
                a.run();
                b.run();
                runs++;
            } while (System.nanoTime() - sliceStart < sliceNanos);
            share = (compiledMillis.getAsLong() - compiledBefore) * 1e6 / (System.nanoTime() - sliceStart);
            if (share < SETTLED_JIT_SHARE) {
                break;
            }
        }
        return new Warmup(runs, (System.nanoTime() - start) / 1e9, share);
    }

    /**
     * One block: an untimed run first, then {@code times} timed runs. An operation that prepares its next run in the
     * background (a look-ahead noise draw) did that for this block's first run while the other operation's block
     * ran; untimed, that run cannot flatter the block, and every timed run overlaps its successor's preparation
     * as in a long run.
     */
    public static double timeBlock(Runnable r, int times) {
        r.run();
        return time(r, times);
    }

    public static double time(Runnable r, int times) {
        long t0 = System.nanoTime();
        for (int i = 0; i < times; i++) {
            r.run();
        }
        return (System.nanoTime() - t0) / 1e6 / times;
    }

    public static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
    }
}
