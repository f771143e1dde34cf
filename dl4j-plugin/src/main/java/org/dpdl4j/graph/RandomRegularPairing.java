package org.dpdl4j.graph;

import java.util.Random;

/**
 * Uniform-ish random d-regular multigraph-free pairing: stubs are drawn two at a time, a draw that
 * would create a self loop or a repeated edge is rejected, and a pairing whose remaining stubs
 * admit no valid pair restarts from scratch.
 */
final class RandomRegularPairing {
    /** Consecutive rejected draws after which the remaining stubs are checked for any valid pair. */
    private static final int REJECTIONS_BEFORE_SCAN = 64;

    private RandomRegularPairing() {
    }

    static Graph sample(int n, int d, Random rng) {
        if (d == 0) {
            return Graph.builder(n).build();
        }
        for (int restart = 0; restart < Topologies.MAX_PAIRING_RESTARTS; restart++) {
            Graph g = tryPairing(n, d, rng);
            if (g != null) {
                return g;
            }
        }
        throw new IllegalArgumentException("random regular graph: the stub pairing for n = " + n + ", d = " + d
                + " got stuck " + Topologies.MAX_PAIRING_RESTARTS + " times; try another seed or degree");
    }

    private static Graph tryPairing(int n, int d, Random rng) {
        int[] stubs = new int[n * d];
        for (int p = 0; p < stubs.length; p++) {
            stubs[p] = p / d;
        }
        int remaining = stubs.length;
        GraphBuilder b = Graph.builder(n);
        int rejections = 0;
        while (remaining > 0) {
            int x = rng.nextInt(remaining);
            int y = rng.nextInt(remaining - 1);
            if (y >= x) {
                y++;
            }
            int u = stubs[x];
            int v = stubs[y];
            if (u != v && !b.hasEdge(u, v)) {
                b.addEdge(u, v);
                // Remove both stubs by moving the last ones into their slots (larger index first).
                int hi = Math.max(x, y);
                int lo = Math.min(x, y);
                stubs[hi] = stubs[--remaining];
                stubs[lo] = stubs[--remaining];
                rejections = 0;
            } else if (++rejections >= REJECTIONS_BEFORE_SCAN) {
                if (!anyValidPair(stubs, remaining, b)) {
                    return null;
                }
                rejections = 0;
            }
        }
        return b.build();
    }

    private static boolean anyValidPair(int[] stubs, int remaining, GraphBuilder b) {
        for (int x = 0; x < remaining; x++) {
            for (int y = x + 1; y < remaining; y++) {
                if (stubs[x] != stubs[y] && !b.hasEdge(stubs[x], stubs[y])) {
                    return true;
                }
            }
        }
        return false;
    }
}
