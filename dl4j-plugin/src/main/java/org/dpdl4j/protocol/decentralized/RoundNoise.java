package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The noise every node adds in one round, {@code N + B U} as one [n, p] matrix, computed one round
 * ahead on a background thread. Noise never depends on the data, so round t+1's noise can be drawn
 * while round t's gradients are computed; on a machine with a spare core this hides its cost. Each
 * term comes from its own keyed stream, so the result is the same with or without the look-ahead.
 * When the streams draw row by row (the secure ones), a draw is a set of row tasks that the caller shares with
 * the look-ahead if it needs the noise before the look-ahead is done ({@link SharedTasks}).
 *
 * <p>Draws go into two persistent sets of buffers used in turn (round t uses set t mod 2): a round's noise is
 * megabytes per node, and fresh off-heap arrays every round cost page faults and garbage collections on
 * the critical path. While the caller uses round t's set, the look-ahead fills the other one with round t+1;
 * the caller's set is only reused for round t+2, which is scheduled after the caller has finished round t.
 * A draw is therefore valid until the caller asks for the round after next.
 */
final class RoundNoise implements AutoCloseable {
    private final NoiseStreams streams;
    private final PairwiseNoise correlated;
    private final int nodes;
    private final long params;
    private final double sigmaCdp;
    private final double sigmaCor;
    private final boolean pairwiseDrawnOnce;
    private final DataType type;
    private final ExecutorService ahead;
    private INDArray fixedPairwise;
    private final Buffers[] buffers = new Buffers[2];
    private Future<Draw> next;
    private Job nextJob;
    private long nextRound = -1;
    /** Threads that join every draw's row tasks (none by default: see {@link #shareWith}). */
    private ExecutorService helpers;
    private int helperCount;

    RoundNoise(NoiseStreams streams, PairwiseNoise correlated, int nodes, long params, double sigmaCdp,
               double sigmaCor, boolean pairwiseDrawnOnce, DataType type, boolean lookAhead) {
        this.streams = streams;
        this.correlated = correlated;
        this.nodes = nodes;
        this.params = params;
        this.sigmaCdp = sigmaCdp;
        this.sigmaCor = sigmaCor;
        this.pairwiseDrawnOnce = pairwiseDrawnOnce;
        this.type = type;
        this.ahead = lookAhead ? Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "dpdl4j-noise-lookahead");
            t.setDaemon(true);
            return t;
        }) : null;
    }

    /**
     * One round's noise: the total each node adds ([n, p]) and, for Decor, the per-edge terms U ([|E|, p])
     * it was built from (what a node's neighbours know), else null.
     */
    record Draw(INDArray total, INDArray edgeNoise) {
    }

    /** One round's arrays: the total [n, p], and for Decor the edge terms U [|E|, p]. */
    private record Buffers(INDArray total, INDArray edgeNoise) {
    }

    /**
     * The noise of {@code round}; schedules the next round's draw in the background. When the look-ahead has not
     * finished and its streams draw row by row, the caller draws the rows still unclaimed itself.
     */
    Draw forRound(long round) {
        Draw noise;
        if (next != null && nextRound == round) {
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                nextJob.tasks().work();
            }
            try {
                noise = next.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while drawing noise", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("drawing the noise of round " + round + " failed: " + e.getCause(), e.getCause());
            }
        } else {
            awaitPending();   // a stale look-ahead may be writing the very buffers this round uses
            try {
                noise = withHelpers(job(round)).run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while drawing noise", e);
            }
        }
        if (ahead != null) {
            Job job = job(round + 1);
            next = ahead.submit(job::run);
            withHelpers(job);
            nextRound = round + 1;
            nextJob = job;
        }
        return noise;
    }

    /**
     * Lets {@code threads} more threads take part in every draw's row tasks (streams that draw row by row: the secure
     * and the Philox ones), beside the look-ahead and the caller: for rounds computed on a device, where the host's cores are otherwise
     * idle and the noise would set the pace. Each row comes from its own keyed stream, so the draws are the same with any
     * number of threads. 0 (the default) stops them.
     */
    void shareWith(int threads) {
        if (threads < 0) {
            throw new IllegalArgumentException("a number of helper threads is at least 0, got " + threads);
        }
        if (threads == helperCount) {
            return;
        }
        if (helpers != null) {
            helpers.shutdown();   // a helper busy with a draw finishes its row; the draw's other threads do the rest
            helpers = null;
        }
        helperCount = threads;
        if (threads > 0) {
            java.util.concurrent.atomic.AtomicInteger named = new java.util.concurrent.atomic.AtomicInteger();
            helpers = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "dpdl4j-noise-helper-" + named.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
    }

    /** The helper threads for rounds on a device on a host of {@code processors} cores: all but two, at most 15. */
    static int helpersBeside(int processors) {
        return Math.max(0, Math.min(15, processors - 2));
    }

    /** How many helper threads join the draws ({@link #shareWith}). */
    int helperThreads() {
        return helperCount;
    }

    /** Sets the helpers to work on {@code job}'s row tasks (they return when none is left unclaimed). */
    private Job withHelpers(Job job) {
        for (int h = 0; job.byRow() && h < helperCount; h++) {
            helpers.execute(() -> {
                try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                    job.tasks().work();
                }
            });
        }
        return job;
    }

    /** One round's draw as shareable tasks (one per row, or a single one), and the arrays it fills. */
    private record Job(SharedTasks tasks, boolean byRow, INDArray total, INDArray edgeNoise) {
        Draw run() throws InterruptedException {
            tasks.work();
            tasks.await();
            return new Draw(total, edgeNoise);
        }
    }

    /**
     * The draw of {@code round}. With streams that draw row by row (the secure ones) it is one task per edge row of U,
     * then one per node row of the total, so two threads can share it and still give the rows that one thread would.
     * Otherwise (one stream for all rows: the seeded streams) it is a single task.
     */
    private Job job(long round) {
        Buffers b = buffers(round);
        boolean pairwise = sigmaCor > 0;
        boolean byRow = streams.drawsRowByRow() && (!pairwise || !pairwiseDrawnOnce && correlated.combinesByRow(params));
        if (!byRow) {
            return new Job(new SharedTasks(0, 1, t -> draw(round, b)), false, b.total(), pairwise ? pairwiseArray(b) : null);
        }
        int edges = pairwise ? correlated.edgeCount() : 0;
        INDArray u = pairwise ? b.edgeNoise() : null;
        return new Job(new SharedTasks(edges, edges + nodes, t -> {
            if (t < edges) {
                streams.pairwiseNoise(t, round).writeGaussian(u.getRow(t), sigmaCor);
            } else {
                nodeRow(t - edges, round, u, b.total().getRow(t - edges));
            }
        }), true, b.total(), u);
    }

    /** Node i's total: its row of B U plus its private noise, as {@link #draw} computes it for all rows. */
    private void nodeRow(int i, long round, INDArray u, INDArray row) {
        if (u != null) {
            correlated.combineRowInto(i, u, row);
            if (sigmaCdp > 0) {
                streams.privateNoise(i, round).addGaussian(row, sigmaCdp);
            }
        } else if (sigmaCdp > 0) {
            streams.privateNoise(i, round).writeGaussian(row, sigmaCdp);
        } else {
            row.assign(0);
        }
    }

    private void awaitPending() {
        if (next == null) {
            return;
        }
        try {
            next.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while drawing noise", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException ignored) {
            // The pending draw is discarded either way; only its end matters here.
        }
        next = null;
    }

    private void draw(long round, Buffers b) {
        INDArray noise = b.total();
        if (sigmaCor > 0) {
            // B U written first and the private noise added to it: the same sums as the private noise plus B U
            // (floating-point addition commutes), without zeroing the total or a separate B U buffer.
            INDArray u = pairwise(round, b.edgeNoise());
            correlated.combineInto(u, noise);
            if (sigmaCdp > 0) {
                streams.addPrivateNoise(noise, round, sigmaCdp);
            }
        } else if (sigmaCdp > 0) {
            streams.writePrivateNoise(noise, round, sigmaCdp);
        } else {
            noise.assign(0);
        }
    }

    /** The array U of a round drawn with {@code b}: its own buffer, or the fixed draw in compatibility mode. */
    private INDArray pairwiseArray(Buffers b) {
        return pairwiseDrawnOnce ? fixedPairwise() : b.edgeNoise();
    }

    private synchronized Buffers buffers(long round) {
        int k = (int) (round & 1);
        if (buffers[k] == null) {
            // Outside any workspace: without look-ahead the draw runs inside the caller's per-round workspace.
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                boolean pairwise = sigmaCor > 0;
                buffers[k] = new Buffers(Nd4j.create(type, nodes, params),
                        pairwise && !pairwiseDrawnOnce ? Nd4j.create(type, correlated.edgeCount(), params) : null);
            }
        }
        return buffers[k];
    }

    private INDArray pairwise(long round, INDArray into) {
        if (!pairwiseDrawnOnce) {
            correlated.edgeNoiseInto(streams, round, sigmaCor, into);
            return into;
        }
        return fixedPairwise();
    }

    private synchronized INDArray fixedPairwise() {
        if (fixedPairwise == null) {
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                fixedPairwise = correlated.edgeNoise(streams, 0, params, sigmaCor);
            }
        }
        return fixedPairwise;
    }

    @Override
    public void close() {
        if (nextJob != null) {
            nextJob.tasks().cancel();   // the look-ahead stops after the row it is drawing
        }
        if (ahead != null) {
            ahead.shutdownNow();
        }
        if (helpers != null) {
            helpers.shutdownNow();
        }
    }
}
