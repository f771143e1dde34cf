package org.dpdl4j.privacy.noise;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.OperatorRows;
import org.dpdl4j.graph.SparseRowOperator;
import org.dpdl4j.graph.MixingMatrix;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Pairwise-cancelling noise (Decor, GOPA) for all nodes at once: {@code B U} with B the oriented incidence
 * matrix (+1 at the lower endpoint of an edge, -1 at the higher) and U one row {@code u_e ~ N(0, sigma^2 I)}
 * per edge, drawn from the edge's own stream (keyed by its secret and the round). Row i is
 * {@code sum_{j in N(i)} v_ij} with {@code v_ij = -v_ji}, so the rows sum to zero exactly up to rounding.
 */
public final class PairwiseNoise {
    private final SparseRowOperator incidence;   // [n, |E|], possibly with columns scaled by W_ij (compatibility)
    private final DataType type;
    private final int edges;

    /**
     * @param graph               the pairs that share secrets
     * @param mixing              gossip weights, used only when {@code scaleByMixingWeight} (Decor reference-code
     *                            compatibility: each pairwise term multiplied by W_ij); may be null otherwise
     * @param scaleByMixingWeight see above
     * @param type                data type of the noise
     */
    public PairwiseNoise(Graph graph, MixingMatrix mixing, boolean scaleByMixingWeight, DataType type) {
        this.edges = graph.edgeCount();
        INDArray b = graph.incidenceArray();
        if (scaleByMixingWeight) {
            for (int e = 0; e < edges; e++) {
                b.getColumn(e).muli(mixing.get(graph.edge(e).i(), graph.edge(e).j()));
            }
        }
        this.incidence = SparseRowOperator.of(b);
        this.type = type;
    }

    /** Pairwise noise without compatibility scaling. */
    public PairwiseNoise(Graph graph, DataType type) {
        this(graph, null, false, type);
    }

    /** The incidence matrix B ([n, |E|], columns scaled by W_ij in compatibility mode) that combines U. */
    public SparseRowOperator incidence() {
        return incidence;
    }

    /** Number of edges |E| (rows of U). */
    public int edgeCount() {
        return edges;
    }

    /** {@code B U} for the given round ([n, p]); all zeros when sigma is 0 or the graph has no edge. */
    public INDArray draw(NoiseStreams streams, long round, long p, double sigma) {
        return combine(edgeNoise(streams, round, p, sigma));
    }

    /** U: one row {@code u_e} per edge ([|E|, p]); node i adds {@code +u_e} for edges (i, j > i) and {@code -u_e} for (j < i, i). */
    public INDArray edgeNoise(NoiseStreams streams, long round, long p, double sigma) {
        INDArray u = Nd4j.zeros(type, edges, p);
        if (sigma > 0 && edges > 0) {
            streams.addPairwiseNoise(u, round, sigma);
        }
        return u;
    }

    /** Writes U for the given round into {@code u} ([|E|, p]), overwriting it: the in-place form of {@link #edgeNoise}. */
    public void edgeNoiseInto(NoiseStreams streams, long round, double sigma, INDArray u) {
        if (sigma > 0 && edges > 0) {
            streams.writePairwiseNoise(u, round, sigma);
        } else {
            u.assign(0);
        }
    }

    /** Writes {@code B U} into {@code out} ([n, p]), overwriting it: the in-place form of {@link #combine}. */
    public void combineInto(INDArray edgeNoise, INDArray out) {
        incidence.apply(edgeNoise, out);
    }

    /**
     * Whether {@code B U} with rows of length {@code p} is computed row by row, so that {@link #combineRowInto} gives
     * exactly the rows {@link #combineInto} gives (false where one dense product is cheaper).
     */
    public boolean combinesByRow(long p) {
        return !incidence.isDenseFor(p);
    }

    /** Writes row {@code node} of {@code B U} into {@code outRow}; U must not change meanwhile. See {@link #combinesByRow}. */
    public void combineRowInto(int node, INDArray edgeNoise, INDArray outRow) {
        incidence.applyRow(node, edgeNoise, outRow);
    }

    /**
     * Rows {@code [from, to)} of B, for a worker holding nodes {@code from..to-1}: {@link OperatorRows#reads()} are the
     * edges they share secrets on, and their rows of {@code B U} equal those of {@link #combineInto} bit for bit.
     */
    public OperatorRows incidenceRows(int from, int to, long p) {
        return incidence.rows(from, to, p);
    }

    /** {@code B U}: row i is the sum of node i's signed pairwise terms. */
    public INDArray combine(INDArray edgeNoise) {
        // Two non-zeros per edge: applied sparsely, the cost is O(|E| p) instead of O(n |E| p).
        INDArray out = Nd4j.create(edgeNoise.dataType(), incidence.rows(), edgeNoise.columns());
        incidence.apply(edgeNoise, out);
        return out;
    }
}
