package org.dpdl4j.graph;

import java.nio.file.Path;
import java.util.Random;

/**
 * Standard communication topologies on the vertices {@code 0..n-1}. Random topologies are
 * reproducible: the same arguments and seed give the same graph ({@link Random} is specified
 * bit for bit).
 */
public final class Topologies {
    /** Attempts of a resample-until-connected generator before it gives up with an error. */
    public static final int MAX_CONNECTIVITY_ATTEMPTS = 1000;
    /** Restarts of the random pairing of a random regular graph before it gives up. */
    public static final int MAX_PAIRING_RESTARTS = 1000;

    private Topologies() {
    }

    /** Ring (cycle): {@code i ~ (i +- 1) mod n}, n >= 3. */
    public static Graph ring(int n) {
        requireAtLeast("ring", "n", n, 3);
        GraphBuilder b = Graph.builder(n);
        for (int i = 0; i < n; i++) {
            b.addEdge(i, (i + 1) % n);
        }
        return b.build();
    }

    /**
     * 2-D torus of {@code rows x cols} nodes, both >= 3; node (r, c) has id {@code r * cols + c}
     * and neighbours {@code ((r +- 1) mod rows, c)} and {@code (r, (c +- 1) mod cols)}.
     */
    public static Graph torus(int rows, int cols) {
        requireAtLeast("torus", "rows", rows, 3);
        requireAtLeast("torus", "cols", cols, 3);
        GraphBuilder b = Graph.builder(Math.multiplyExact(rows, cols));
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int v = r * cols + c;
                b.addEdge(v, ((r + 1) % rows) * cols + c);
                b.addEdge(v, r * cols + (c + 1) % cols);
            }
        }
        return b.build();
    }

    /** Square torus {@code k x k} with {@code n = k^2}; throws if n is not a perfect square of k >= 3. */
    public static Graph torus(int n) {
        int k = (int) Math.round(Math.sqrt(n));
        if (k * k != n) {
            throw new IllegalArgumentException("a square torus needs a perfect-square number of nodes, got n = " + n
                    + "; use e.g. n = " + (k * k) + " or " + ((k + 1) * (k + 1)) + ", or give the shape as RxC");
        }
        return torus(k, k);
    }

    /** Complete graph: every pair adjacent, n >= 2. */
    public static Graph complete(int n) {
        requireAtLeast("complete graph", "n", n, 2);
        GraphBuilder b = Graph.builder(n);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                b.addEdge(i, j);
            }
        }
        return b.build();
    }

    /** Star: centre 0 joined to every other vertex, n >= 2. */
    public static Graph star(int n) {
        requireAtLeast("star", "n", n, 2);
        GraphBuilder b = Graph.builder(n);
        for (int i = 1; i < n; i++) {
            b.addEdge(0, i);
        }
        return b.build();
    }

    /** Path {@code 0 - 1 - ... - (m-1)}, m >= 2. */
    public static Graph path(int m) {
        requireAtLeast("path", "m", m, 2);
        GraphBuilder b = Graph.builder(m);
        for (int i = 0; i + 1 < m; i++) {
            b.addEdge(i, i + 1);
        }
        return b.build();
    }

    /**
     * Connected random d-regular graph. Stubs (d per vertex) are paired uniformly at random,
     * pairs that would make a self loop or a repeated edge are rejected and redrawn, and the
     * pairing restarts when it gets stuck (the Steger-Wormald refinement of the configuration
     * model with rejection). Graphs that come out disconnected are resampled. For
     * {@code d > (n-1)/2} the complement of a random {@code (n-1-d)}-regular graph is returned,
     * which has the same distribution and pairs far fewer stubs.
     *
     * @throws IllegalArgumentException if {@code n*d} is odd, {@code d >= n} or {@code d < 1}, or if no
     *     connected graph came out in {@link #MAX_CONNECTIVITY_ATTEMPTS} attempts
     */
    public static Graph randomRegular(int n, int d, long seed) {
        requireAtLeast("random regular graph", "n", n, 2);
        if (d < 1 || d >= n) {
            throw new IllegalArgumentException("random regular graph: degree d = " + d + " must satisfy 1 <= d < n = " + n);
        }
        if ((long) n * d % 2 != 0) {
            throw new IllegalArgumentException("random regular graph: n * d = " + n + " * " + d
                    + " is odd, but every edge uses two stubs; make n or d even");
        }
        Random rng = new Random(seed);
        for (int attempt = 0; attempt < MAX_CONNECTIVITY_ATTEMPTS; attempt++) {
            Graph g;
            if (d == n - 1) {
                g = complete(n);
            } else if (2 * d > n - 1) {
                g = complement(RandomRegularPairing.sample(n, n - 1 - d, rng));
            } else {
                g = RandomRegularPairing.sample(n, d, rng);
            }
            if (g.isConnected()) {
                return g;
            }
        }
        throw new IllegalArgumentException("random regular graph: no connected " + d + "-regular graph on " + n + " vertices in "
                + MAX_CONNECTIVITY_ATTEMPTS + " attempts (seed " + seed + "); use d >= 3, which is connected with high probability");
    }

    /**
     * Connected Erdos-Renyi graph G(n, p): every pair is an edge independently with probability p;
     * disconnected draws are resampled.
     *
     * @throws IllegalArgumentException if p is not in (0, 1], or if no connected graph came out in
     *     {@link #MAX_CONNECTIVITY_ATTEMPTS} attempts
     */
    public static Graph erdosRenyi(int n, double p, long seed) {
        requireAtLeast("Erdos-Renyi graph", "n", n, 2);
        if (!(p > 0 && p <= 1)) {
            throw new IllegalArgumentException("Erdos-Renyi graph: edge probability p = " + p + " must lie in (0, 1]");
        }
        Random rng = new Random(seed);
        for (int attempt = 0; attempt < MAX_CONNECTIVITY_ATTEMPTS; attempt++) {
            GraphBuilder b = Graph.builder(n);
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    if (rng.nextDouble() < p) {
                        b.addEdge(i, j);
                    }
                }
            }
            Graph g = b.build();
            if (g.isConnected()) {
                return g;
            }
        }
        throw new IllegalArgumentException(String.format(
                "Erdos-Renyi graph: no connected G(%d, %s) in %d attempts (seed %d); G(n, p) is connected with high probability"
                        + " only above p = ln(n)/n = %.4g, so use a larger p, e.g. %.4g",
                n, p, MAX_CONNECTIVITY_ATTEMPTS, seed, Math.log(n) / n, Math.min(1.0, 2 * Math.log(n) / n)));
    }

    /**
     * Random k-out graph (GOPA): each vertex picks k distinct other vertices uniformly at random and
     * the picks are made undirected (a pair picked by both ends is one edge). Degrees are at least
     * k; the graph is not forced to be connected (it is with high probability for k >= 2).
     */
    public static Graph randomKOut(int n, int k, long seed) {
        requireAtLeast("random k-out graph", "n", n, 2);
        if (k < 1 || k > n - 1) {
            throw new IllegalArgumentException("random k-out graph: k = " + k + " must satisfy 1 <= k <= n - 1 = " + (n - 1));
        }
        Random rng = new Random(seed);
        GraphBuilder b = Graph.builder(n);
        int[] others = new int[n - 1];
        for (int i = 0; i < n; i++) {
            for (int o = 0, v = 0; v < n; v++) {
                if (v != i) {
                    others[o++] = v;
                }
            }
            // Partial Fisher-Yates: the first k entries become a uniform k-subset.
            for (int s = 0; s < k; s++) {
                int r = s + rng.nextInt(n - 1 - s);
                int t = others[s];
                others[s] = others[r];
                others[r] = t;
                if (!b.hasEdge(i, others[s])) {
                    b.addEdge(i, others[s]);
                }
            }
        }
        return b.build();
    }

    /**
     * Reads an edge-list file ({@code i j} per line, {@code #} starts a comment) for a graph on n
     * vertices; see {@link EdgeListFile} for the errors.
     */
    public static Graph fromEdgeListFile(Path file, int n) {
        return EdgeListFile.read(file, n);
    }

    /** Reads an edge-list file; the vertex count is one more than the largest id in the file. */
    public static Graph fromEdgeListFile(Path file) {
        return EdgeListFile.read(file);
    }

    /** The complement graph: the pairs that are not edges of g. */
    public static Graph complement(Graph g) {
        int n = g.vertexCount();
        GraphBuilder b = Graph.builder(n);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (!g.hasEdge(i, j)) {
                    b.addEdge(i, j);
                }
            }
        }
        return b.build();
    }

    private static void requireAtLeast(String what, String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(what + ": " + name + " = " + value + " is too small, it needs " + name + " >= " + min);
        }
    }
}
