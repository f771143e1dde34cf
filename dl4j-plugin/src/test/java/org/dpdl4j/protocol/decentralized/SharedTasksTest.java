package org.dpdl4j.protocol.decentralized;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SharedTasksTest {

    @Test
    void threeThreadsRunEveryTaskOnceAndTheSecondPhaseAfterTheFirst() throws Exception {
        int first = 40;
        int count = 100;
        AtomicIntegerArray runs = new AtomicIntegerArray(count);
        AtomicInteger firstEnded = new AtomicInteger();
        AtomicLong earlySecond = new AtomicLong();
        SharedTasks tasks = new SharedTasks(first, count, t -> {
            if (t >= first && firstEnded.get() != first) {
                earlySecond.incrementAndGet();
            }
            busy(t % 7);
            runs.incrementAndGet(t);
            if (t < first) {
                firstEnded.incrementAndGet();
            }
        });
        Thread[] helpers = {new Thread(tasks::work), new Thread(tasks::work)};
        for (Thread h : helpers) {
            h.start();
        }
        tasks.work();
        tasks.await();
        for (Thread h : helpers) {
            h.join();
        }
        for (int t = 0; t < count; t++) {
            assertEquals(1, runs.get(t), "task " + t);
        }
        assertEquals(0, earlySecond.get(), "a second-phase task started before the first phase ended");
        tasks.work();   // nothing left: returns at once
    }

    @Test
    void aFailureEndsTheWorkAndIsRethrown() {
        AtomicInteger secondPhaseRuns = new AtomicInteger();
        SharedTasks tasks = new SharedTasks(3, 6, t -> {
            if (t == 1) {
                throw new IllegalArgumentException("boom");
            }
            if (t >= 3) {
                secondPhaseRuns.incrementAndGet();
            }
        });
        tasks.work();
        IllegalStateException e = assertThrows(IllegalStateException.class, tasks::await);
        assertTrue(e.getMessage().contains("boom"), e.getMessage());
        assertEquals(0, secondPhaseRuns.get(), "second-phase tasks are skipped after a failure");
    }

    @Test
    void aFailureOnAnotherThreadIsRethrownHere() throws Exception {
        SharedTasks tasks = new SharedTasks(0, 1, t -> {
            throw new IllegalArgumentException("on the helper");
        });
        Thread helper = new Thread(tasks::work);
        helper.start();
        helper.join();
        tasks.work();   // nothing left to claim
        IllegalStateException e = assertThrows(IllegalStateException.class, tasks::await);
        assertTrue(e.getMessage().contains("on the helper"), e.getMessage());
    }

    @Test
    void anInterruptDoesNotSpoilTheWorkAndIsKept() throws Exception {
        AtomicInteger ran = new AtomicInteger();
        SharedTasks tasks = new SharedTasks(2, 5, t -> ran.incrementAndGet());
        Thread.currentThread().interrupt();
        try {
            tasks.work();
            assertTrue(Thread.interrupted(), "the interrupt is kept for the caller (and cleared here)");
        } finally {
            Thread.interrupted();
        }
        assertEquals(5, ran.get());
        tasks.await();
    }

    @Test
    void cancelSkipsWhatHasNotStarted() {
        AtomicInteger ran = new AtomicInteger();
        SharedTasks tasks = new SharedTasks(2, 5, t -> ran.incrementAndGet());
        tasks.cancel();
        tasks.work();
        assertEquals(0, ran.get());
        assertThrows(IllegalStateException.class, tasks::await);
    }

    @Test
    void rejectsAFirstPhaseLargerThanTheWork() {
        assertThrows(IllegalArgumentException.class, () -> new SharedTasks(5, 4, t -> { }));
        assertThrows(IllegalArgumentException.class, () -> new SharedTasks(-1, 4, t -> { }));
    }

    private static void busy(int micros) {
        long end = System.nanoTime() + micros * 1000L;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
