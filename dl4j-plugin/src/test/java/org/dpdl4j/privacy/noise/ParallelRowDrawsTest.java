package org.dpdl4j.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.dpdl4j.graph.Topologies;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Streams that draw row by row draw a matrix's rows on several threads, with the values one thread draws; a party's own
 * noise ({@link NoiseStreams#addOwnPrivateNoise}) comes from its own stream whatever the streams' all-rows draws do.
 */
class ParallelRowDrawsTest {
    private static final int ROWS = 24;
    private static final int P = 4099;

    @Test
    void secureRowsDrawnInParallelEqualEachRowDrawnAlone() {
        SecureNoiseStreams streams = new SecureNoiseStreams(Topologies.ring(ROWS));
        INDArray all = Nd4j.rand(DataType.FLOAT, ROWS, P);
        INDArray alone = all.dup();
        streams.addPrivateNoise(all, 3, 0.9);
        for (int i = 0; i < ROWS; i++) {
            streams.privateNoise(i, 3).addGaussian(alone.getRow(i), 0.9);
        }
        assertEquals(alone, all);
        INDArray edges = Nd4j.create(DataType.FLOAT, ROWS, P);
        streams.writePairwiseNoise(edges, 3, 1.1);
        for (int e = 0; e < ROWS; e++) {
            INDArray row = Nd4j.create(DataType.FLOAT, P);
            streams.pairwiseNoise(e, 3).writeGaussian(row, 1.1);
            assertEquals(row, edges.getRow(e), "edge " + e);
        }
    }

    @Test
    void rowByRowStreamsShareTheRowsWithOtherThreads() throws Exception {
        CountDownLatch otherThreadDrew = new CountDownLatch(1);
        Set<Thread> drawing = ConcurrentHashMap.newKeySet();
        INDArray rows = Nd4j.zeros(DataType.FLOAT, ROWS, P);
        // A draw started by a task of a two-thread pool shares its rows in that pool (the common pool's one worker on a
        // two-core machine may be busy with other work). The first row the starting thread draws waits (up to a minute)
        // until some row is drawn on another thread: by then a parallel draw has split off the other rows for the pool's
        // second thread to take, so only a parallel draw gets past it however late that thread wakes.
        java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(2);
        try {
            pool.submit(() -> watched(true, otherThreadDrew, drawing).writePrivateNoise(rows, 1, 1.0)).get(2,
                    TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        assertTrue(otherThreadDrew.await(0, TimeUnit.SECONDS), "no row was drawn on another thread");
        assertTrue(drawing.size() > 1, "threads " + drawing);
        for (int i = 0; i < ROWS; i++) {
            INDArray row = Nd4j.zeros(DataType.FLOAT, P);
            new SeededNoiseStreams(5).privateNoise(i, 1).writeGaussian(row, 1.0);
            assertArrayEquals(row.toFloatVector(), rows.getRow(i).toFloatVector(), "row " + i);
        }
    }

    /** A row that fails reaches the caller only when no other thread still writes rows into the array. */
    @Test
    void aFailingRowIsThrownOnceNoOtherRowIsBeingWritten() throws Exception {
        INDArray rows = Nd4j.zeros(DataType.FLOAT, ROWS, P);
        NoiseStreams failing = new WatchedRows(new RowByRowStreams(new SeededNoiseStreams(5), true), "row 5 fails") {
            @Override
            protected void before(boolean pairwise, int id, long round) {
                if (id == 5) {
                    throw new IllegalStateException("the key of node 5 is not held here");
                }
                java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);   // a slow row, written after this
            }
        };
        java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(2);
        try {
            java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> pool.submit(() -> failing.writePrivateNoise(rows, 1, 1.0)).get(2, TimeUnit.MINUTES));
            assertTrue(e.getCause() instanceof IllegalStateException && e.getCause().getMessage().contains("node 5"),
                    String.valueOf(e.getCause()));
            INDArray when = rows.dup();
            Thread.sleep(200);   // longer than a row: a row still being drawn would land meanwhile
            assertEquals(when, rows, "a row was written after the failure reached the caller");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void streamsThatDrawAllRowsFromOneStreamStayOnTheCallersThread() {
        Set<Thread> drawing = ConcurrentHashMap.newKeySet();
        watched(false, null, drawing).writePrivateNoise(Nd4j.zeros(DataType.FLOAT, ROWS, P), 1, 1.0);
        assertEquals(Set.of(Thread.currentThread()), drawing);
    }

    @Test
    void eachPartysOwnNoiseComesFromItsOwnStreamInAnyOrder() {
        int[] parties = {7, 2, 11};
        for (NoiseStreams streams : new NoiseStreams[]{new SeededNoiseStreams(9), new PhiloxNoiseStreams(9),
            new SecureNoiseStreams(Topologies.ring(12))}) {
            INDArray rows = Nd4j.rand(DataType.FLOAT, parties.length, P);
            INDArray expected = rows.dup();
            streams.addOwnPrivateNoise(rows, parties, 4, 0.5);
            for (int r = 0; r < parties.length; r++) {
                streams.privateNoise(parties[r], 4).addGaussian(expected.getRow(r), 0.5);
            }
            assertEquals(expected, rows, streams.description());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SeededNoiseStreams(9).addOwnPrivateNoise(Nd4j.zeros(DataType.FLOAT, 2, P), parties, 4, 0.5));
        assertTrue(e.getMessage().contains("[3, p]"), e.getMessage());
    }

    /**
     * Seeded row-by-row streams (declaring it or not) whose private rows record the drawing thread; with a latch, the
     * first row drawn on the thread that asks for the streams (and starts the draw) waits until a row is drawn on another
     * thread. (Not row 0: a starting thread that draws the rows it split off itself, before the other thread wakes, would
     * reach row 0 with nothing left for the other thread to take.)
     */
    private static NoiseStreams watched(boolean declared, CountDownLatch otherThreadDrew, Set<Thread> drawing) {
        Thread caller = Thread.currentThread();   // the thread that starts the draw
        java.util.concurrent.atomic.AtomicBoolean callerDrew = new java.util.concurrent.atomic.AtomicBoolean();
        return new WatchedRows(new RowByRowStreams(new SeededNoiseStreams(5), declared), "watched") {
            @Override
            protected void before(boolean pairwise, int id, long round) {
                drawing.add(Thread.currentThread());
                if (otherThreadDrew == null) {
                    return;
                }
                if (Thread.currentThread() != caller) {
                    otherThreadDrew.countDown();
                } else if (callerDrew.compareAndSet(false, true)) {
                    try {
                        otherThreadDrew.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
    }
}
