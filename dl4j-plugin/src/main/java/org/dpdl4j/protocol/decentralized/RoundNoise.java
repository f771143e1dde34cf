package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.nd4j.linalg.api.buffer.DataType;
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
    private Future<Draw> next;
    private long nextRound = -1;

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

    /** The noise of {@code round}; schedules the next round's draw in the background. */
    Draw forRound(long round) {
        Draw noise;
        if (next != null && nextRound == round) {
            try {
                noise = next.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while drawing noise", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("drawing the noise of round " + round + " failed: " + e.getCause(), e.getCause());
            }
        } else {
            noise = draw(round);
        }
        if (ahead != null) {
            nextRound = round + 1;
            next = ahead.submit(() -> draw(round + 1));
        }
        return noise;
    }

    private Draw draw(long round) {
        INDArray noise = Nd4j.zeros(type, nodes, params);
        if (sigmaCdp > 0) {
            streams.addPrivateNoise(noise, round, sigmaCdp);
        }
        INDArray u = null;
        if (sigmaCor > 0) {
            u = pairwise(round);
            noise.addi(correlated.combine(u));
        }
        return new Draw(noise, u);
    }

    private synchronized INDArray pairwise(long round) {
        if (!pairwiseDrawnOnce) {
            return correlated.edgeNoise(streams, round, params, sigmaCor);
        }
        if (fixedPairwise == null) {
            fixedPairwise = correlated.edgeNoise(streams, 0, params, sigmaCor);
        }
        return fixedPairwise;
    }

    @Override
    public void close() {
        if (ahead != null) {
            ahead.shutdownNow();
        }
    }
}
