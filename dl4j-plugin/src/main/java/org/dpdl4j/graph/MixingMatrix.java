package org.dpdl4j.graph;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A gossip (mixing) matrix W on a graph: symmetric, non-negative, rows summing to 1 (hence doubly
 * stochastic), and zero between distinct non-adjacent nodes. One gossip round of the n node models
 * stacked as the rows of X is {@code W . X} ({@link #toINDArray()}).
 */
public final class MixingMatrix {
    /** Tolerance on |row sum - 1| and on |W_ij - W_ji|. */
    public static final double TOLERANCE = 1e-12;

    private final Graph graph;
    private final double[][] w;
    private volatile Double contraction;

    private MixingMatrix(Graph graph, double[][] w) {
        this.graph = graph;
        this.w = w;
    }

    /**
     * Metropolis-Hastings weights: {@code W_ij = 1/(max(d_i, d_j) + 1)} on edges,
     * {@code W_ii = 1 - sum_{j != i} W_ij}. Ring: 1/3 everywhere; 4x4 torus: 1/5; complete: 1/n.
     */
    public static MixingMatrix metropolisHastings(Graph graph) {
        int n = graph.vertexCount();
        double[][] w = new double[n][n];
        for (Edge e : graph.edges()) {
            double v = 1.0 / (Math.max(graph.degree(e.i()), graph.degree(e.j())) + 1);
            w[e.i()][e.j()] = v;
            w[e.j()][e.i()] = v;
        }
        fillDiagonal(w);
        return of(graph, w);
    }

    /** Uniform weights {@code 1/(d_max + 1)} on every edge, the rest on the diagonal. */
    public static MixingMatrix uniform(Graph graph) {
        int n = graph.vertexCount();
        double v = 1.0 / (graph.maxDegree() + 1);
        double[][] w = new double[n][n];
        for (Edge e : graph.edges()) {
            w[e.i()][e.j()] = v;
            w[e.j()][e.i()] = v;
        }
        fillDiagonal(w);
        return of(graph, w);
    }

    /** Exact averaging {@code W = 11^T / n}; valid only on the complete graph. */
    public static MixingMatrix averaging(Graph completeGraph) {
        int n = completeGraph.vertexCount();
        double[][] w = new double[n][n];
        for (double[] row : w) {
            java.util.Arrays.fill(row, 1.0 / n);
        }
        return of(completeGraph, w);
    }

    /** Whether this is exact averaging, every entry 1/n (to {@link #TOLERANCE}). */
    public boolean isAveraging() {
        int n = size();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (Math.abs(get(i, j) - 1.0 / n) > TOLERANCE) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Validates and wraps a user-supplied matrix (copied). */
    public static MixingMatrix of(Graph graph, double[][] matrix) {
        int n = graph.vertexCount();
        if (matrix.length != n) {
            throw new IllegalArgumentException("mixing matrix has " + matrix.length + " rows but the graph has " + n + " nodes");
        }
        double[][] w = Matrices.copy(matrix);
        for (int i = 0; i < n; i++) {
            if (w[i].length != n) {
                throw new IllegalArgumentException("mixing matrix row " + i + " has " + w[i].length + " entries, expected " + n);
            }
            double sum = 0;
            for (int j = 0; j < n; j++) {
                double v = w[i][j];
                if (!Double.isFinite(v) || v < 0) {
                    throw new IllegalArgumentException("mixing matrix entry (" + i + ", " + j + ") = " + v
                            + " must be a finite non-negative weight");
                }
                if (i != j && v != 0 && !graph.hasEdge(i, j)) {
                    throw new IllegalArgumentException("mixing matrix entry (" + i + ", " + j + ") = " + v
                            + " is non-zero but nodes " + i + " and " + j + " are not adjacent; set it to 0 or add the edge");
                }
                if (Math.abs(v - w[j][i]) > TOLERANCE) {
                    throw new IllegalArgumentException("mixing matrix is not symmetric: (" + i + ", " + j + ") = " + v
                            + " but (" + j + ", " + i + ") = " + w[j][i]);
                }
                sum += v;
            }
            if (Math.abs(sum - 1) > TOLERANCE) {
                throw new IllegalArgumentException("mixing matrix row " + i + " sums to " + sum
                        + ", not 1 (tolerance " + TOLERANCE + "); rescale it or put the remainder on the diagonal");
            }
        }
        return new MixingMatrix(graph, w);
    }

    private static void fillDiagonal(double[][] w) {
        for (int i = 0; i < w.length; i++) {
            double off = 0;
            for (int j = 0; j < w.length; j++) {
                if (j != i) {
                    off += w[i][j];
                }
            }
            w[i][i] = 1.0 - off;
        }
    }

    /** The graph W lives on. */
    public Graph graph() {
        return graph;
    }

    /** Number of nodes. */
    public int size() {
        return w.length;
    }

    /** Entry {@code W_ij}. */
    public double get(int i, int j) {
        return w[i][j];
    }

    /** A copy of W. */
    public double[][] toArray() {
        return Matrices.copy(w);
    }

    /** W as a DOUBLE INDArray for {@code W . X} gossip. */
    public INDArray toINDArray() {
        return Matrices.toNd4j(w);
    }

    /** W as an INDArray of the given floating-point type (e.g. FLOAT to match the model rows). */
    public INDArray toINDArray(DataType type) {
        return Matrices.toNd4j(w, type);
    }

    /**
     * {@code lambda_max(|W - 11^T/n|)}: the largest eigenvalue modulus of W on the complement of the
     * consensus direction. For symmetric W, {@code ||W X - Xbar||_F <= lambda ||X - Xbar||_F}.
     */
    public double consensusContraction() {
        Double c = contraction;
        if (c == null) {
            int n = w.length;
            double[][] centred = new double[n][n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    centred[i][j] = w[i][j] - 1.0 / n;
                }
            }
            double[] ev = SymmetricEigendecomposition.of(centred).eigenvalues();
            c = Math.max(Math.abs(ev[0]), Math.abs(ev[n - 1]));
            contraction = c;
        }
        return c;
    }

    /**
     * Consensus rate {@code p = 1 - lambda_max(W - 11^T/n)^2} (Decor Assumption 5): the smallest p with
     * {@code ||W X - Xbar||_F^2 <= (1 - p) ||X - Xbar||_F^2}. 1 for exact averaging, {@code O(1/n^2)} on a ring.
     */
    public double consensusRate() {
        double c = consensusContraction();
        return 1.0 - c * c;
    }

    /**
     * Mixing heterogeneity {@code psi(W) = (1/|E|) sum_{e={a,b}} ||W_{:,a} - W_{:,b}||^2}. With edge
     * noise {@code u_e ~ N(0, sigma^2 I_d)}, {@code E||W B U||_F^2 = d sigma^2 |E| psi(W)} (Decor Lemma 8).
     */
    public double mixingHeterogeneity() {
        if (graph.edgeCount() == 0) {
            throw new IllegalStateException("the graph has no edge, so the mixing heterogeneity (an average over edges) is undefined");
        }
        return edgeColumnDifferenceSum() / graph.edgeCount();
    }

    /** {@code sum_{e={a,b}} ||W_{:,a} - W_{:,b}||^2}, i.e. {@code ||W B||_F^2}. */
    public double edgeColumnDifferenceSum() {
        double total = 0;
        for (Edge e : graph.edges()) {
            for (double[] row : w) {
                double d = row[e.i()] - row[e.j()];
                total += d * d;
            }
        }
        return total;
    }
}
