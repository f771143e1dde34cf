package org.dpdl4j.cli.bench;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

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
        }, 7, 1_000_000L, 0L);
        assertEquals(7, w.runs(), "a cap of zero stops right after the minimum");
        assertEquals(7, calls[0]);
        assertEquals(7, calls[1]);
        assertEquals("ab".repeat(7), order.toString());
        assertTrue(Double.isNaN(w.jitShare()), "no slice was timed");
    }

    @Test
    void warmUpGoesOnInSlicesUntilTheJitSettlesOrTheCap() {
        if (!ManagementFactory.getCompilationMXBean().isCompilationTimeMonitoringSupported()) {
            return;   // this JVM cannot tell; the warm-up is the minimum alone
        }
        long slice = 20_000_000L;
        long cap = 2_000_000_000L;
        int[] calls = new int[2];
        PairedTiming.Warmup w = PairedTiming.warmUp(() -> calls[0]++, () -> calls[1]++, 3, slice, cap);
        assertTrue(w.runs() > 3, "at least one slice after the minimum");
        assertEquals(w.runs(), calls[0]);
        assertEquals(w.runs(), calls[1]);
        assertTrue(w.jitShare() >= 0, "the last slice's share was measured");
        assertTrue(w.jitShare() < PairedTiming.SETTLED_JIT_SHARE || w.seconds() >= cap / 1e9,
                "ends settled, or at the cap: " + w);
        assertTrue(w.seconds() < cap / 1e9 + 1.0, "a slice never runs far past the cap: " + w);
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
