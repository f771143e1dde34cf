package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.dpdl4j.privacy.noise.RowByRowStreams;
import org.dpdl4j.privacy.noise.WatchedRows;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.privacy.noise.SecureNoiseStreams;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoundNoiseTest {

    @Test
    void drawsSharedRowByRowEqualTheSingleTaskDraws() {
        Graph torus = Topologies.torus(3, 3);   // four terms per node row
        PairwiseNoise pairwise = new PairwiseNoise(torus, DataType.FLOAT);
        // p = 20 000: B U combined row by row; p = 100: one dense product, so the draw stays a single task.
        assertTrue(pairwise.combinesByRow(20_000));
        assertFalse(pairwise.combinesByRow(100));
        double[][] sigmas = {{0.7, 1.3}, {0.7, 0.0}, {0.0, 1.3}};
        for (int p : new int[]{20_000, 100}) {
            for (double[] sigma : sigmas) {
                for (boolean lookAhead : new boolean[]{true, false}) {
                    try (RoundNoise shared = new RoundNoise(new RowByRowStreams(new SeededNoiseStreams(5), true), pairwise, 9, p, sigma[0],
                            sigma[1], false, DataType.FLOAT, lookAhead);
                         RoundNoise single = new RoundNoise(new RowByRowStreams(new SeededNoiseStreams(5), false), pairwise, 9, p,
                                 sigma[0], sigma[1], false, DataType.FLOAT, lookAhead)) {
                        for (long round = 0; round < 4; round++) {
                            // Asked for right after the previous round: the look-ahead has only just started, so this
                            // thread takes part of the row tasks.
                            RoundNoise.Draw a = shared.forRound(round);
                            RoundNoise.Draw b = single.forRound(round);
                            String at = "p=" + p + " sigmas=" + java.util.Arrays.toString(sigma) + " lookAhead=" + lookAhead + " round " + round;
                            assertArrayEquals(b.total().ravel().toFloatVector(), a.total().ravel().toFloatVector(), 0f, at);
                            assertTrue(a.total().norm2Number().doubleValue() > 0, at);
                            if (sigma[1] > 0) {
                                assertArrayEquals(b.edgeNoise().ravel().toFloatVector(), a.edgeNoise().ravel().toFloatVector(), 0f, at);
                            } else {
                                assertNull(a.edgeNoise(), at);
                            }
                        }
                    }
                }
            }
        }
    }

    /** Helper threads (as rounds on a device get) take part in the row tasks; the draws stay those of one thread. */
    @Test
    void drawsWithHelperThreadsEqualTheSingleTaskDraws() {
        Graph torus = Topologies.torus(4, 4);
        PairwiseNoise pairwise = new PairwiseNoise(torus, DataType.FLOAT);
        int p = 20_000;
        for (boolean lookAhead : new boolean[]{true, false}) {
            try (RoundNoise helped = new RoundNoise(new RowByRowStreams(new SeededNoiseStreams(5), true), pairwise, 16, p,
                    0.7, 1.3, false, DataType.FLOAT, lookAhead);
                 RoundNoise single = new RoundNoise(new RowByRowStreams(new SeededNoiseStreams(5), false), pairwise, 16, p,
                         0.7, 1.3, false, DataType.FLOAT, lookAhead)) {
                helped.shareWith(3);
                assertEquals(3, helped.helperThreads());
                for (long round = 0; round < 5; round++) {
                    if (round == 3) {
                        helped.shareWith(1);   // fewer helpers from the next draw on
                    }
                    RoundNoise.Draw a = helped.forRound(round);
                    RoundNoise.Draw b = single.forRound(round);
                    String at = "lookAhead=" + lookAhead + " round " + round;
                    assertArrayEquals(b.total().ravel().toFloatVector(), a.total().ravel().toFloatVector(), 0f, at);
                    assertArrayEquals(b.edgeNoise().ravel().toFloatVector(), a.edgeNoise().ravel().toFloatVector(), 0f, at);
                }
            }
        }
        try (RoundNoise noise = new RoundNoise(new SeededNoiseStreams(5), pairwise, 16, p, 0.7, 1.3, false, DataType.FLOAT,
                true)) {
            assertThrows(IllegalArgumentException.class, () -> noise.shareWith(-1));
        }
    }

    /**
     * The helpers do draw rows: the first row the calling thread draws waits (up to a minute) until a thread of the helper
     * pool has drawn one, which it can only do if the helpers share the draw (the rest of the rows are unclaimed then,
     * however late the helpers start on a loaded machine).
     */
    @Test
    void helperThreadsDrawRowsOfEachDraw() {
        RowByRowStreams rows = new RowByRowStreams(new SeededNoiseStreams(3), true);
        java.util.Set<String> drawers = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Thread caller = Thread.currentThread();
        java.util.concurrent.CountDownLatch helperDrew = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean callerWaited = new java.util.concurrent.atomic.AtomicBoolean();
        NoiseStreams recorded = new WatchedRows(rows, "recording") {
            @Override
            protected void before(boolean pairwise, int id, long round) {
                String name = Thread.currentThread().getName();
                drawers.add(name);
                if (name.startsWith("dpdl4j-noise-helper-")) {
                    helperDrew.countDown();
                } else if (Thread.currentThread() == caller && callerWaited.compareAndSet(false, true)) {
                    try {
                        helperDrew.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        try (RoundNoise noise = new RoundNoise(recorded, new PairwiseNoise(Topologies.torus(4, 4), DataType.FLOAT), 16,
                20_000, 0.7, 1.3, false, DataType.FLOAT, false)) {
            noise.shareWith(2);
            for (long round = 0; round < 3; round++) {
                noise.forRound(round);
            }
        }
        assertTrue(drawers.stream().anyMatch(name -> name.startsWith("dpdl4j-noise-helper-")), "drawn by " + drawers);
        assertEquals(0, RoundNoise.helpersBeside(2), "a two-core host keeps its cores");
        assertEquals(14, RoundNoise.helpersBeside(16));
        assertEquals(15, RoundNoise.helpersBeside(64));
    }

    @Test
    void aRowThatFailsFailsTheRound() {
        Graph ring = Topologies.ring(4);
        RowByRowStreams rows = new RowByRowStreams(new SeededNoiseStreams(2), true);
        NoiseStreams failing = new WatchedRows(rows, "fails at round 2") {
            @Override
            protected void before(boolean pairwise, int id, long round) {
                if (pairwise && round == 2 && id == 3) {
                    throw new IllegalStateException("edge secret unavailable");
                }
            }
        };
        try (RoundNoise noise = new RoundNoise(failing, new PairwiseNoise(ring, DataType.FLOAT), 4, 20_000, 0.5, 1.0, false,
                DataType.FLOAT, true)) {
            noise.forRound(0);
            noise.forRound(1);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> noise.forRound(2));
            assertTrue(String.valueOf(e.getMessage()).contains("edge secret unavailable"), e.getMessage());
        }
    }

    @Test
    void secureStreamsDrawRowByRowAndSeededStreamsDoNot() {
        assertTrue(new SecureNoiseStreams(Topologies.ring(3)).drawsRowByRow());
        assertFalse(new SeededNoiseStreams(1).drawsRowByRow());
    }
}
