package org.dpdl4j.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * An immutable simple undirected graph on the vertices {@code 0..n-1}.
 *
 * <p>Edges are indexed in a stable order: edge e is the e-th pair {@code (i, j)}, {@code i < j}, in
 * lexicographic order. That index is the column of the oriented incidence matrix
 * {@code B} ({@code +1} at i, {@code -1} at j), so {@code L = B B^T} with the Laplacian
 * {@code L = Deg - A}, and it is the index the pairwise-noise streams of an edge are keyed by.
 *
 * <p>Dense matrices are returned as fresh {@code double[][]} (row-major); the {@code ...Array()}
 * variants give DOUBLE ND4J arrays for the simulation engine. The Laplacian spectrum is computed on
 * first use and cached.
 */
public final class Graph {
    private final int n;
    private final Edge[] edges;
    /** Sorted neighbours of each vertex. */
    private final int[][] neighbours;
    /** incident[v][k] is the index of the edge between v and neighbours[v][k]. */
    private final int[][] incident;
    private volatile SymmetricEigendecomposition spectrum;

    Graph(int n, Collection<Edge> edgeCollection) {
        requireVertexCount(n);
        this.n = n;
        this.edges = edgeCollection.toArray(new Edge[0]);
        Arrays.sort(edges);
        int[] degree = new int[n];
        for (int e = 0; e < edges.length; e++) {
            Edge edge = edges[e];
            if (edge.j() >= n) {
                throw new IllegalArgumentException("vertex " + edge.j() + " of edge " + edge + " is out of range: the graph has "
                        + n + " vertices with ids 0.." + (n - 1));
            }
            if (e > 0 && edge.equals(edges[e - 1])) {
                throw new IllegalArgumentException("edge " + edge + " is given twice; graphs here are simple, remove the duplicate");
            }
            degree[edge.i()]++;
            degree[edge.j()]++;
        }
        neighbours = new int[n][];
        incident = new int[n][];
        for (int v = 0; v < n; v++) {
            neighbours[v] = new int[degree[v]];
            incident[v] = new int[degree[v]];
        }
        int[] fill = new int[n];
        // In lexicographic edge order, vertex v first meets its smaller neighbours (edges (i, v), in
        // increasing i) and then its larger ones (edges (v, k), in increasing k): lists come out sorted.
        for (int e = 0; e < edges.length; e++) {
            int i = edges[e].i();
            int j = edges[e].j();
            neighbours[i][fill[i]] = j;
            incident[i][fill[i]++] = e;
            neighbours[j][fill[j]] = i;
            incident[j][fill[j]++] = e;
        }
    }

    /** A builder for a graph on {@code n} vertices. */
    public static GraphBuilder builder(int n) {
        return new GraphBuilder(n);
    }

    /** The graph on {@code n} vertices with the given edges (any endpoint order); validates them. */
    public static Graph of(int n, int[]... edgePairs) {
        GraphBuilder b = builder(n);
        for (int k = 0; k < edgePairs.length; k++) {
            int[] p = edgePairs[k];
            if (p.length != 2) {
                throw new IllegalArgumentException("edge #" + k + " has " + p.length + " endpoints; give exactly two");
            }
            b.addEdge(p[0], p[1]);
        }
        return b.build();
    }

    /** The graph on {@code n} vertices with the given edges; validates range and duplicates. */
    public static Graph of(int n, Collection<Edge> edges) {
        GraphBuilder b = builder(n);
        for (Edge e : edges) {
            b.addEdge(e.i(), e.j());
        }
        return b.build();
    }

    static void requireVertexCount(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a graph needs at least one vertex, got n = " + n);
        }
    }

    // ---------------------------------------------------------------- structure

    /** Number of vertices n. */
    public int vertexCount() {
        return n;
    }

    /** Number of edges |E|. */
    public int edgeCount() {
        return edges.length;
    }

    /** Degree of vertex v. */
    public int degree(int v) {
        requireVertex(v);
        return neighbours[v].length;
    }

    /** Degrees of all vertices. */
    public int[] degrees() {
        int[] d = new int[n];
        for (int v = 0; v < n; v++) {
            d[v] = neighbours[v].length;
        }
        return d;
    }

    /** Largest degree. */
    public int maxDegree() {
        return Arrays.stream(neighbours).mapToInt(a -> a.length).max().orElse(0);
    }

    /** Smallest degree. */
    public int minDegree() {
        return Arrays.stream(neighbours).mapToInt(a -> a.length).min().orElse(0);
    }

    /** Neighbours of v in increasing order (a copy). */
    public int[] neighbours(int v) {
        requireVertex(v);
        return neighbours[v].clone();
    }

    /** Indices of the edges at v, in the order of {@link #neighbours(int)} (a copy). */
    public int[] incidentEdges(int v) {
        requireVertex(v);
        return incident[v].clone();
    }

    /** Whether a and b are adjacent. */
    public boolean hasEdge(int a, int b) {
        requireVertex(a);
        requireVertex(b);
        return Arrays.binarySearch(neighbours[a], b) >= 0;
    }

    /** Stable index of the edge {a, b} (either order); throws if they are not adjacent. */
    public int edgeIndex(int a, int b) {
        requireVertex(a);
        requireVertex(b);
        int k = Arrays.binarySearch(neighbours[a], b);
        if (k < 0) {
            throw new IllegalArgumentException("vertices " + a + " and " + b + " are not adjacent; check hasEdge first");
        }
        return incident[a][k];
    }

    /** Edge number e. */
    public Edge edge(int e) {
        if (e < 0 || e >= edges.length) {
            throw new IllegalArgumentException("edge index " + e + " is out of range 0.." + (edges.length - 1));
        }
        return edges[e];
    }

    /** All edges in index order. */
    public List<Edge> edges() {
        return Collections.unmodifiableList(Arrays.asList(edges.clone()));
    }

    // ---------------------------------------------------------------- matrices

    /** Adjacency matrix A. */
    public double[][] adjacencyMatrix() {
        double[][] a = new double[n][n];
        for (Edge e : edges) {
            a[e.i()][e.j()] = 1;
            a[e.j()][e.i()] = 1;
        }
        return a;
    }

    /** Laplacian {@code L = Deg - A}. */
    public double[][] laplacianMatrix() {
        double[][] l = new double[n][n];
        for (int v = 0; v < n; v++) {
            l[v][v] = neighbours[v].length;
        }
        for (Edge e : edges) {
            l[e.i()][e.j()] = -1;
            l[e.j()][e.i()] = -1;
        }
        return l;
    }

    /** Oriented incidence matrix B (n x |E|): column e has +1 at its smaller endpoint, -1 at the larger. */
    public double[][] incidenceMatrix() {
        double[][] b = new double[n][edges.length];
        for (int e = 0; e < edges.length; e++) {
            b[edges[e].i()][e] = 1;
            b[edges[e].j()][e] = -1;
        }
        return b;
    }

    /** {@link #adjacencyMatrix()} as a DOUBLE INDArray. */
    public INDArray adjacencyArray() {
        return Matrices.toNd4j(adjacencyMatrix());
    }

    /** {@link #laplacianMatrix()} as a DOUBLE INDArray. */
    public INDArray laplacianArray() {
        return Matrices.toNd4j(laplacianMatrix());
    }

    /**
     * {@link #incidenceMatrix()} as a DOUBLE INDArray; the engine forms the correlated noise of all
     * nodes as {@code B . U} with one row of U per edge. Throws when the graph has no edge.
     */
    public INDArray incidenceArray() {
        if (edges.length == 0) {
            throw new IllegalStateException("the graph has no edge, so its incidence matrix has no column");
        }
        return Matrices.toNd4j(incidenceMatrix());
    }

    /**
     * Transition matrix of the uniform random walk, {@code P_ij = 1/d_i} for neighbours j. Throws
     * if a vertex is isolated (the walk could not leave it).
     */
    public double[][] randomWalkTransitionMatrix() {
        requireNoIsolatedVertex("random-walk transition matrix");
        double[][] p = new double[n][n];
        for (int v = 0; v < n; v++) {
            double w = 1.0 / neighbours[v].length;
            for (int u : neighbours[v]) {
                p[v][u] = w;
            }
        }
        return p;
    }

    /** Stationary distribution {@code pi_i = d_i / (2|E|)} of the uniform random walk. */
    public double[] stationaryDistribution() {
        requireNoIsolatedVertex("stationary distribution");
        double[] pi = new double[n];
        double total = 2.0 * edges.length;
        for (int v = 0; v < n; v++) {
            pi[v] = neighbours[v].length / total;
        }
        return pi;
    }

    // ---------------------------------------------------------------- subgraphs

    /** The subgraph induced by the given distinct vertices, renumbered in increasing id order. */
    public InducedSubgraph inducedSubgraph(int... vertices) {
        BitSet keep = new BitSet(n);
        for (int v : vertices) {
            requireVertex(v);
            if (keep.get(v)) {
                throw new IllegalArgumentException("vertex " + v + " is listed twice for the induced subgraph");
            }
            keep.set(v);
        }
        return induced(keep);
    }

    /** The graph with the given distinct vertices (and their edges) deleted, as an induced subgraph. */
    public InducedSubgraph deleteVertices(int... vertices) {
        BitSet keep = new BitSet(n);
        keep.set(0, n);
        for (int v : vertices) {
            requireVertex(v);
            if (!keep.get(v)) {
                throw new IllegalArgumentException("vertex " + v + " is listed twice for deletion");
            }
            keep.clear(v);
        }
        if (keep.isEmpty()) {
            throw new IllegalArgumentException("deleting all " + n + " vertices would leave an empty graph");
        }
        return induced(keep);
    }

    /** The graph with vertex v deleted. */
    public InducedSubgraph deleteVertex(int v) {
        return deleteVertices(v);
    }

    private InducedSubgraph induced(BitSet keep) {
        if (keep.isEmpty()) {
            throw new IllegalArgumentException("an induced subgraph needs at least one vertex");
        }
        int[] ids = keep.stream().toArray();
        int[] local = new int[n];
        Arrays.fill(local, -1);
        for (int k = 0; k < ids.length; k++) {
            local[ids[k]] = k;
        }
        List<Edge> kept = new ArrayList<>();
        for (Edge e : edges) {
            if (local[e.i()] >= 0 && local[e.j()] >= 0) {
                kept.add(new Edge(local[e.i()], local[e.j()]));
            }
        }
        return new InducedSubgraph(new Graph(ids.length, kept), ids, n);
    }

    // ---------------------------------------------------------------- connectivity

    /**
     * Connected components, each as a sorted array of vertex ids, ordered by their smallest vertex.
     */
    public List<int[]> connectedComponents() {
        int[] label = componentLabels();
        int count = Arrays.stream(label).max().orElse(-1) + 1;
        int[] size = new int[count];
        for (int c : label) {
            size[c]++;
        }
        int[][] comps = new int[count][];
        for (int c = 0; c < count; c++) {
            comps[c] = new int[size[c]];
        }
        int[] fill = new int[count];
        for (int v = 0; v < n; v++) {
            comps[label[v]][fill[label[v]]++] = v;
        }
        return List.of(comps);
    }

    /** Component label of each vertex, labels numbered by first appearance. */
    public int[] componentLabels() {
        int[] label = new int[n];
        Arrays.fill(label, -1);
        int next = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int s = 0; s < n; s++) {
            if (label[s] >= 0) {
                continue;
            }
            label[s] = next;
            queue.add(s);
            while (!queue.isEmpty()) {
                int v = queue.poll();
                for (int u : neighbours[v]) {
                    if (label[u] < 0) {
                        label[u] = next;
                        queue.add(u);
                    }
                }
            }
            next++;
        }
        return label;
    }

    /** Whether the graph is connected (a single vertex is). */
    public boolean isConnected() {
        return connectedComponents().size() == 1;
    }

    /**
     * Articulation points (cut vertices): vertices whose deletion increases the number of
     * connected components. Sorted. Iterative Hopcroft-Tarjan, so deep graphs do not overflow the stack.
     */
    public int[] articulationPoints() {
        int[] disc = new int[n];
        int[] low = new int[n];
        int[] parent = new int[n];
        int[] nextChild = new int[n];
        Arrays.fill(disc, -1);
        BitSet cut = new BitSet(n);
        int time = 0;
        int[] stack = new int[n];
        for (int root = 0; root < n; root++) {
            if (disc[root] >= 0) {
                continue;
            }
            int rootChildren = 0;
            int top = 0;
            stack[top++] = root;
            parent[root] = -1;
            disc[root] = low[root] = time++;
            while (top > 0) {
                int v = stack[top - 1];
                if (nextChild[v] < neighbours[v].length) {
                    int u = neighbours[v][nextChild[v]++];
                    if (disc[u] < 0) {
                        parent[u] = v;
                        disc[u] = low[u] = time++;
                        stack[top++] = u;
                        if (v == root) {
                            rootChildren++;
                        }
                    } else if (u != parent[v]) {
                        low[v] = Math.min(low[v], disc[u]);
                    }
                } else {
                    top--;
                    int p = parent[v];
                    if (p >= 0) {
                        low[p] = Math.min(low[p], low[v]);
                        if (p != root && low[v] >= disc[p]) {
                            cut.set(p);
                        }
                    }
                }
            }
            if (rootChildren > 1) {
                cut.set(root);
            }
        }
        return cut.stream().toArray();
    }

    /**
     * Whether the graph is 2-connected: at least three vertices, connected, and no single vertex
     * deletion disconnects it (no articulation point). Curious users (one deleted vertex) leave a
     * connected honest graph exactly when this holds.
     */
    public boolean isTwoConnected() {
        return n >= 3 && isConnected() && articulationPoints().length == 0;
    }

    // ---------------------------------------------------------------- spectrum

    /**
     * Eigen-decomposition of the Laplacian, eigenvalues ascending. The null space is set exactly:
     * the first c eigenvalues (c = number of connected components) are 0 and their eigenvectors are
     * the normalised component indicators, so that limits such as {@code sigma_cor -> infinity} in the
     * accountants are exact rather than carrying LAPACK's {@code +-1e-16}.
     */
    public SymmetricEigendecomposition laplacianSpectrum() {
        SymmetricEigendecomposition s = spectrum;
        if (s == null) {
            s = computeSpectrum();
            spectrum = s;
        }
        return s;
    }

    private SymmetricEigendecomposition computeSpectrum() {
        SymmetricEigendecomposition raw = SymmetricEigendecomposition.of(laplacianMatrix());
        double[] values = raw.eigenvalues();
        double[] q = raw.eigenvectorsRowMajor();
        List<int[]> comps = connectedComponents();
        for (int c = 0; c < comps.size(); c++) {
            values[c] = 0.0;
            double w = 1.0 / Math.sqrt(comps.get(c).length);
            for (int i = 0; i < n; i++) {
                q[i * n + c] = 0.0;
            }
            for (int v : comps.get(c)) {
                q[v * n + c] = w;
            }
        }
        for (int k = comps.size(); k < n; k++) {
            if (!(values[k] > 0)) {
                throw new IllegalStateException("Laplacian eigenvalue " + k + " = " + values[k] + " is not positive although the graph has "
                        + comps.size() + " components; the eigensolver lost accuracy");
            }
        }
        return SymmetricEigendecomposition.fromParts(values, q);
    }

    /**
     * Algebraic connectivity {@code a(G) = lambda_2(L)}: positive iff the graph is connected; exactly
     * 0 for a disconnected graph and for a single vertex.
     */
    public double algebraicConnectivity() {
        if (n < 2) {
            return 0.0;
        }
        return laplacianSpectrum().eigenvalue(1);
    }

    // ---------------------------------------------------------------- helpers

    private void requireVertex(int v) {
        if (v < 0 || v >= n) {
            throw new IllegalArgumentException("vertex " + v + " is out of range: the graph has " + n + " vertices with ids 0.." + (n - 1));
        }
    }

    private void requireNoIsolatedVertex(String what) {
        for (int v = 0; v < n; v++) {
            if (neighbours[v].length == 0) {
                throw new IllegalStateException("vertex " + v + " is isolated, so the " + what
                        + " is undefined; connect it or delete it first");
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Graph g && g.n == n && Arrays.equals(g.edges, edges);
    }

    @Override
    public int hashCode() {
        return 31 * n + Arrays.hashCode(edges);
    }

    @Override
    public String toString() {
        return "Graph(n=" + n + ", |E|=" + edges.length + ")";
    }
}
