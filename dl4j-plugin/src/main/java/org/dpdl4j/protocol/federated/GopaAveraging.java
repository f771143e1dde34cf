package org.dpdl4j.protocol.federated;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.OperatorRows;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.dpdl4j.runtime.ArrayMemory;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;
import java.util.Objects;

/**
 * GOPA's private averaging step (Sabater, Bellet and Ramon; spec 7.3) for K parties holding vectors
 * {@code theta_k} (rows of a [K, p] matrix): party k reveals
 * {@code thetaHat_k = theta_k + sum_{l ~ k} Delta_{k,l} + eta_k}, where {@code Delta_{k,l} = -Delta_{l,k} ~ N(0, sigma_Delta^2 I)}
 * is drawn by the two ends of edge {k, l} of the graph from their shared secret ({@link PairwiseNoise}, the
 * same keyed streams as Decor's) and {@code eta_k ~ N(0, sigma_eta^2 I)} from k's private stream. The pairwise
 * terms cancel in the sum, so {@code sum_k thetaHat_k = sum_k theta_k + sum_k eta_k} and the average is unbiased
 * with variance {@code sigma_eta^2 / K} per coordinate.
 */
public final class GopaAveraging {
    private final Graph graph;
    private final PairwiseNoise pairwise;
    private final double sigmaPrivate;
    private final double sigmaPairwise;

    /**
     * @param graph         who shares pairwise secrets (GOPA: a random k-out graph over the parties)
     * @param sigmaPrivate  sigma_eta, std of each party's independent noise, &gt;= 0
     * @param sigmaPairwise sigma_Delta, std of each pair's cancelling noise, &gt;= 0
     * @param type          data type of the values
     */
    public GopaAveraging(Graph graph, double sigmaPrivate, double sigmaPairwise, DataType type) {
        this.graph = Objects.requireNonNull(graph, "graph");
        if (!(sigmaPrivate >= 0) || Double.isInfinite(sigmaPrivate) || !(sigmaPairwise >= 0) || Double.isInfinite(sigmaPairwise)) {
            throw new IllegalArgumentException("GOPA noise levels must be finite and >= 0, got sigma_eta = " + sigmaPrivate
                    + ", sigma_Delta = " + sigmaPairwise);
        }
        this.pairwise = new PairwiseNoise(graph, type);
        this.sigmaPrivate = sigmaPrivate;
        this.sigmaPairwise = sigmaPairwise;
    }

    /**
     * What the parties reveal in one round: a new [K, p] matrix.
     *
     * @param values  [K, p], row k held by party k
     * @param streams the parties' streams (private noise of party k, pairwise noise of each edge)
     * @param round   keys the draws; never reuse a round
     */
    public INDArray reveal(INDArray values, NoiseStreams streams, long round) {
        if (values.rank() != 2 || values.size(0) != graph.vertexCount()) {
            throw new IllegalArgumentException("GOPA on " + graph.vertexCount() + " parties needs a [" + graph.vertexCount()
                    + ", p] matrix of values, got " + Arrays.toString(values.shape()));
        }
        // the edges' noise [|E|, p] and its sum at each party [K, p], freed as soon as they are added
        INDArray edges = pairwise.edgeNoise(streams, round, values.size(1), sigmaPairwise);
        INDArray pairwiseSums = pairwise.combine(edges);
        ArrayMemory.release(edges);
        INDArray out = values.add(pairwiseSums.castTo(values.dataType()));
        ArrayMemory.release(pairwiseSums);
        if (sigmaPrivate > 0) {
            streams.addPrivateNoise(out, round, sigmaPrivate);   // row k from party k's stream
        }
        return out;
    }

    /**
     * What parties {@code first..first+values.rows()-1} reveal, computed where only they are held: their rows of
     * {@link #reveal} with these noise levels, bit for bit, from their own private streams and the secrets of their edges.
     *
     * @param values    the parties' values, one row each
     * @param incidence their rows of the graph's incidence matrix ({@link #incidenceRows}); its reads are their edges
     * @param type      the data type the pairwise terms are drawn in (the run's)
     */
    public static INDArray revealRows(INDArray values, int first, OperatorRows incidence, NoiseStreams streams, long round,
                                      double sigmaPrivate, double sigmaPairwise, DataType type) {
        int[] edges = incidence.reads();
        INDArray u = Nd4j.zeros(type, edges.length, values.size(1));
        if (sigmaPairwise > 0 && edges.length > 0) {
            streams.writePairwiseNoise(u, edges, round, sigmaPairwise);
        }
        INDArray terms = Nd4j.create(type, values.size(0), values.size(1));
        incidence.apply(u, terms);
        INDArray out = values.add(terms.castTo(values.dataType()));
        if (sigmaPrivate > 0) {
            streams.addPrivateNoise(out, java.util.stream.IntStream.range(first, first + (int) values.size(0)).toArray(), round,
                    sigmaPrivate);
        }
        return out;
    }

    /** Rows {@code [from, to)} of the graph's incidence matrix, for the parties a worker holds (see {@link #revealRows}). */
    public OperatorRows incidenceRows(int from, int to, long p) {
        return pairwise.incidenceRows(from, to, p);
    }

    /** The server's estimate of the average: the mean of the revealed rows ([p]). */
    public static INDArray estimate(INDArray revealed) {
        return revealed.mean(0);
    }

    public Graph graph() {
        return graph;
    }

    /** The graph's incidence matrix B ([K, |E|]) that combines the pairwise rows: what a device needs to draw them there. */
    public org.dpdl4j.graph.SparseRowOperator incidence() {
        return pairwise.incidence();
    }

    public double sigmaPrivate() {
        return sigmaPrivate;
    }

    public double sigmaPairwise() {
        return sigmaPairwise;
    }
}
