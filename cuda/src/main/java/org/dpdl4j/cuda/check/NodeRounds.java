package org.dpdl4j.cuda.check;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.StackedDenseModels;

/**
 * The rounds of a decentralized run as the device check drives the engine's {@link StackedDenseModels} without ND4J:
 * n node models of a {@link CheckModels.Case}, each node's padded batch (node i with {@code b - i % 4} real examples
 * when padded), a gossip matrix with Metropolis-Hastings weights on a ring, a random d-regular graph or the complete
 * graph (exact averaging), and a round of D-SGD, LDP/CDP or Decor: clipped sums (example level) or clipped local
 * gradients (user level), the division by the batch size, the noise (copied in from the host), the step and gossip.
 */
final class NodeRounds {
    /** The communication graphs of the check and the benchmark. */
    enum Topology {
        RING, REGULAR_8, COMPLETE;

        String label() {
            return switch (this) {
                case RING -> "ring";
                case REGULAR_8 -> "8-regular";
                case COMPLETE -> "complete";
            };
        }
    }

    /** What a round clips and adds: none (D-SGD), example-level clipping, or user-level clipping, noise or not. */
    enum Privacy { NONE, EXAMPLE_LEVEL, USER_LEVEL }

    final CheckModels.Case model;
    final int nodes;
    final int batch;
    final boolean padded;
    final float[] params;
    final float[] features;
    final float[] labels;
    final float[] mask;
    final float[] batchFactors;
    final int[] rowStarts;
    final int[] columns;
    final float[] weights;
    /** The signed incidence matrix B [n, |E|] of the graph in compressed rows: +1 at an edge's lower end, -1 at its higher. */
    final int[] incidenceStarts;
    final int[] incidenceColumns;
    final float[] incidenceWeights;
    final int edges;

    NodeRounds(CheckModels.Case model, int nodes, int batch, boolean padded, Topology topology, long seed) {
        this.model = model;
        this.nodes = nodes;
        this.batch = batch;
        this.padded = padded;
        int p = model.numParams();
        this.params = new float[nodes * p];
        float[] one = CheckModels.parameters(model, seed);
        SplittableRandom r = new SplittableRandom(seed + 1);
        for (int i = 0; i < nodes; i++) {
            for (int j = 0; j < p; j++) {
                params[i * p + j] = one[j] + (float) (0.01 * (r.nextDouble() - 0.5));
            }
        }
        this.features = CheckModels.uniform(nodes * batch * model.nIn(), seed + 2);
        this.labels = CheckModels.labels(model, nodes * batch, seed + 3);
        this.mask = new float[nodes * batch];
        this.batchFactors = new float[nodes];
        for (int i = 0; i < nodes; i++) {
            int real = padded ? Math.max(1, batch - i % 4) : batch;
            Arrays.fill(mask, i * batch, i * batch + real, 1f);
            for (int e = real; e < batch; e++) {
                Arrays.fill(features, (i * batch + e) * model.nIn(), (i * batch + e + 1) * model.nIn(), 0f);
            }
            batchFactors[i] = 1f / batch;   // each local gradient is its sum over the expected batch size
        }
        int[][] neighbours = neighbours(topology, nodes, new SplittableRandom(seed + 4));
        this.rowStarts = new int[nodes + 1];
        int nnz = 0;
        for (int i = 0; i < nodes; i++) {
            nnz += neighbours[i].length + 1;
            rowStarts[i + 1] = nnz;
        }
        this.columns = new int[nnz];
        this.weights = new float[nnz];
        int maxDegree = Arrays.stream(neighbours).mapToInt(a -> a.length).max().orElse(0);
        Incidence b = incidence(neighbours);
        this.edges = b.edges();
        this.incidenceStarts = b.starts();
        this.incidenceColumns = b.columns();
        this.incidenceWeights = b.weights();
        for (int i = 0; i < nodes; i++) {
            int[] row = Arrays.copyOf(neighbours[i], neighbours[i].length + 1);
            row[row.length - 1] = i;
            Arrays.sort(row);
            for (int k = 0; k < row.length; k++) {
                columns[rowStarts[i] + k] = row[k];
                // Metropolis-Hastings on a regular graph: 1 / (d + 1) for each neighbour and the node itself
                weights[rowStarts[i] + k] = topology == Topology.COMPLETE ? 1f / nodes : 1f / (maxDegree + 1);
            }
        }
    }

    /** A graph's signed incidence matrix in compressed rows, its edges numbered in (lower end, higher end) order. */
    private record Incidence(int[] starts, int[] columns, float[] weights, int edges) {
    }

    private static Incidence incidence(int[][] neighbours) {
        int n = neighbours.length;
        java.util.TreeMap<Long, Integer> ids = new java.util.TreeMap<>();
        for (int i = 0; i < n; i++) {
            for (int j : neighbours[i]) {
                ids.putIfAbsent((long) Math.min(i, j) * n + Math.max(i, j), 0);
            }
        }
        int edges = 0;
        for (Long key : ids.keySet()) {
            ids.put(key, edges++);
        }
        int[] starts = new int[n + 1];
        int[] columns = new int[2 * edges];
        float[] weights = new float[2 * edges];
        int k = 0;
        for (int i = 0; i < n; i++) {
            java.util.TreeMap<Integer, Float> row = new java.util.TreeMap<>();
            for (int j : neighbours[i]) {
                row.put(ids.get((long) Math.min(i, j) * n + Math.max(i, j)), i < j ? 1f : -1f);
            }
            for (var entry : row.entrySet()) {
                columns[k] = entry.getKey();
                weights[k] = entry.getValue();
                k++;
            }
            starts[i + 1] = k;
        }
        return new Incidence(starts, columns, weights, edges);
    }

    /** The models of this setting on {@code backend}, with its parameters and gossip matrix loaded. */
    StackedDenseModels open(Backend backend) {
        StackedDenseModels m = new StackedDenseModels(backend, model.dense(), nodes);
        backend.upload(params, 0, m.models());
        m.mixing(rowStarts, columns, weights);
        m.pairwiseIncidence(incidenceStarts, incidenceColumns, incidenceWeights, edges);
        return m;
    }

    /** Loads this setting's batch (masked when padded). */
    void loadBatch(StackedDenseModels m) {
        m.loadBatch(features, labels, padded ? mask : null, null, batch);
    }

    /**
     * Keeps this setting's examples on the device as a run keeps its nodes' data (every example, then a row of zeros
     * for the padding) and returns the row of each batch position, for {@link StackedDenseModels#gatherBatch}.
     */
    float[] holdAsData(StackedDenseModels m) {
        int examples = nodes * batch;
        float[] x = Arrays.copyOf(features, (examples + 1) * model.nIn());
        float[] y = Arrays.copyOf(labels, (examples + 1) * model.nOut());
        try (var xs = new org.bytedeco.javacpp.FloatPointer(x); var ys = new org.bytedeco.javacpp.FloatPointer(y)) {
            m.holdData(xs, ys, null, examples + 1);
        }
        float[] rows = new float[examples];
        for (int e = 0; e < examples; e++) {
            rows[e] = !padded || mask[e] == 1f ? e : examples;
        }
        return rows;
    }

    /** One round with the batch already loaded: clipping as {@code privacy} says, the noise on the device's buffer. */
    static void round(StackedDenseModels m, Privacy privacy, float[] factors, boolean noise, float lr) {
        m.clippedSums(privacy == Privacy.EXAMPLE_LEVEL ? 1f : Float.POSITIVE_INFINITY);
        m.scaleRows(factors);
        if (privacy == Privacy.USER_LEVEL) {
            m.clipRows(0.5f);
        }
        m.step(noise, lr, 1f - lr * 1e-4f);
        m.mix();
    }

    /** Each node's neighbours (no self-loops, symmetric). */
    static int[][] neighbours(Topology topology, int n, SplittableRandom r) {
        return switch (topology) {
            case RING -> {
                int[][] out = new int[n][];
                for (int i = 0; i < n; i++) {
                    out[i] = n == 2 ? new int[]{1 - i} : new int[]{(i + n - 1) % n, (i + 1) % n};
                }
                yield out;
            }
            case COMPLETE -> {
                int[][] out = new int[n][n - 1];
                for (int i = 0; i < n; i++) {
                    for (int j = 0, k = 0; j < n; j++) {
                        if (j != i) {
                            out[i][k++] = j;
                        }
                    }
                }
                yield out;
            }
            case REGULAR_8 -> regular(n, 8, r);
        };
    }

    /**
     * A random d-regular graph (d even, n &gt; 2d) as the union of d / 2 random Hamiltonian cycles that share no edge,
     * each cycle redrawn until it adds only new edges.
     */
    private static int[][] regular(int n, int d, SplittableRandom r) {
        if (d % 2 != 0 || n <= 2 * d) {
            throw new IllegalArgumentException("a random " + d + "-regular graph here needs an even degree and more than "
                    + 2 * d + " nodes, got " + n);
        }
        java.util.Set<Long> edges = new java.util.HashSet<>();
        int[][] out = new int[n][d];
        int[] degree = new int[n];
        for (int c = 0; c < d / 2; c++) {
            for (int attempt = 0; ; attempt++) {
                if (attempt == 10_000) {
                    throw new IllegalStateException("no edge-disjoint Hamiltonian cycle found for a " + d + "-regular graph on "
                            + n + " nodes");
                }
                int[] perm = new int[n];
                for (int i = 0; i < n; i++) {
                    perm[i] = i;
                }
                for (int i = n - 1; i > 0; i--) {
                    int j = r.nextInt(i + 1);
                    int t = perm[i];
                    perm[i] = perm[j];
                    perm[j] = t;
                }
                java.util.Set<Long> added = new java.util.HashSet<>();
                boolean ok = true;
                for (int i = 0; i < n && ok; i++) {
                    int a = perm[i];
                    int b = perm[(i + 1) % n];
                    long key = (long) Math.min(a, b) * n + Math.max(a, b);
                    ok = !edges.contains(key) && added.add(key);
                }
                if (ok) {
                    edges.addAll(added);
                    for (int i = 0; i < n; i++) {
                        int a = perm[i];
                        int b = perm[(i + 1) % n];
                        out[a][degree[a]++] = b;
                        out[b][degree[b]++] = a;
                    }
                    break;
                }
            }
        }
        return out;
    }
}
