package org.dpdl4j.protocol.decentralized;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Work split into numbered tasks that any thread may claim, in two phases: every task of [0, firstPhase) has ended
 * before a task of [firstPhase, count) starts. A round's noise draw is such work (the pairwise rows, then each
 * node's row built from them): the look-ahead thread starts it, and a caller that needs it before it is done takes
 * the tasks still unclaimed instead of waiting idle.
 *
 * <p>Tasks are claimed in order, so a thread that waits for the first phase to end only waits for tasks other
 * threads are running, never for unclaimed ones: the work cannot deadlock. That wait is short and not interruptible
 * (an interrupt is kept for the caller), so a stray interrupt cannot spoil a draw. A failed task still counts as
 * ended; after the first failure (or {@link #cancel}) the tasks not yet started are skipped, and {@link #await}
 * throws.
 */
final class SharedTasks {
    private final int firstPhase;
    private final int count;
    private final IntConsumer task;
    private final AtomicInteger claimed = new AtomicInteger();
    private final CountDownLatch firstPhaseDone;
    private final CountDownLatch allDone;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    /**
     * @param firstPhase number of first-phase tasks (0 to count)
     * @param count      number of tasks
     * @param task       runs task i; must be safe to call from several threads for different i
     */
    SharedTasks(int firstPhase, int count, IntConsumer task) {
        if (firstPhase < 0 || firstPhase > count) {
            throw new IllegalArgumentException("first phase of " + firstPhase + " tasks out of " + count);
        }
        this.firstPhase = firstPhase;
        this.count = count;
        this.task = task;
        this.firstPhaseDone = new CountDownLatch(firstPhase);
        this.allDone = new CountDownLatch(count);
    }

    /** Claims and runs tasks until none is left unclaimed; returns without waiting for tasks other threads hold. */
    void work() {
        boolean interrupted = false;
        for (int t = claimed.getAndIncrement(); t < count; t = claimed.getAndIncrement()) {
            try {
                if (t >= firstPhase) {
                    interrupted |= awaitFirstPhase();
                }
                if (failure.get() == null) {
                    task.accept(t);
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            } finally {
                if (t < firstPhase) {
                    firstPhaseDone.countDown();
                }
                allDone.countDown();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for the first phase to end, through interrupts; returns whether one came. */
    private boolean awaitFirstPhase() {
        boolean interrupted = false;
        while (true) {
            try {
                firstPhaseDone.await();
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    /** Skips every task not yet started; {@link #await} then throws. */
    void cancel() {
        failure.compareAndSet(null, new java.util.concurrent.CancellationException("cancelled"));
    }

    /** Waits until every task has ended; throws if one failed. */
    void await() throws InterruptedException {
        allDone.await();
        Throwable f = failure.get();
        if (f != null) {
            throw new IllegalStateException("a task failed: " + f, f);
        }
    }
}
