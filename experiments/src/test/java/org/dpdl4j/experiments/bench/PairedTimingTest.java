package org.dpdl4j.experiments.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PairedTimingTest {

    @Test
    void warmUpRunsBothAlternatelyAtLeastTheMinimum() {
        int[] calls = new int[2];
        StringBuilder order = new StringBuilder();
        PairedTiming.Warmup w = PairedTiming.warmUp(() -> {
            calls[0]++;
            order.append('a');
        }, () -> {
            calls[1]++;
            order.append('b');
        }, 7, 1_000_000L, 0L, () -> 0L);
        assertEquals(7, w.runs(), "a cap of zero stops right after the minimum");
        assertEquals(7, calls[0]);
        assertEquals(7, calls[1]);
        assertEquals("ab".repeat(7), order.toString());
        assertTrue(Double.isNaN(w.jitShare()), "no slice was timed");
        assertTrue(w.format().contains("not measured"), w.format());
    }

    @Test
    void warmUpGoesOnWhileTheJitIsBusyAndStopsOnceItSettles() {
        long slice = 10_000_000L;   // 10 ms
        long[] compiled = {0};
        int[] slicesBusy = {3};
        int[] reads = {0};
        // The JIT "compiles" 1000 ms per 10 ms slice for three slices (far above 2% even if a slice stalls), then nothing.
        java.util.function.LongSupplier clock = () -> {
            if (reads[0]++ % 2 == 1 && slicesBusy[0] > 0) {
                slicesBusy[0]--;
                compiled[0] += 1000;
            }
            return compiled[0];
        };
        PairedTiming.Warmup w = PairedTiming.warmUp(() -> { }, () -> { }, 1, slice, 60_000_000_000L, clock);
        assertEquals(8, reads[0], "four slices: three busy, one settled");
        assertEquals(0.0, w.jitShare(), 0.0);
        assertTrue(w.runs() > 1);
    }

    @Test
    void warmUpEndsAtTheCapWhenTheJitNeverSettles() {
        long[] compiled = {0};
        // Every read adds far more compile time than a 10 ms slice can hold.
        PairedTiming.Warmup w = PairedTiming.warmUp(() -> { }, () -> { }, 1, 10_000_000L, 100_000_000L, () -> compiled[0] += 100_000);
        assertTrue(w.jitShare() > PairedTiming.SETTLED_JIT_SHARE, w.format());
        assertTrue(w.seconds() >= 0.1, "runs until the 0.1 s cap: " + w.format());
        assertTrue(w.seconds() < 30, "and stops there: " + w.format());
    }

    @Test
    void aBlockRunsOnceUntimedBeforeItsTimedRuns() {
        int[] calls = {0};
        double ms = PairedTiming.timeBlock(() -> calls[0]++, 4);
        assertEquals(5, calls[0]);
        assertTrue(ms >= 0);
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, PairedTiming.median(new double[]{3, 1, 2}), 0.0);
        assertEquals(2.5, PairedTiming.median(new double[]{4, 1, 3, 2}), 0.0);
    }
}
