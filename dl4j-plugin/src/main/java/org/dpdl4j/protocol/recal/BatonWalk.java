package org.dpdl4j.protocol.recal;

import java.util.random.RandomGenerator;
import org.dpdl4j.graph.Graph;

/**
 * The baton's path: a uniform random walk on the graph ({@code P_ij = 1/d_i} on edges), from a uniformly random
 * start. It is drawn before the run from randomness independent of the data, so the activation counts it implies
 * (every agent's local communication involvement) are known to the accountant up front.
 */
public final class BatonWalk {
    private BatonWalk() {
    }

    /**
     * The active agent of every iteration.
     *
     * @throws IllegalArgumentException when the graph has an agent without neighbours (the baton could not leave it)
     */
    public static int[] draw(Graph graph, long iterations, RandomGenerator random) {
        if (iterations < 0 || iterations > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the walk needs 0 to 2^31 - 1 iterations, got " + iterations);
        }
        for (int v = 0; v < graph.vertexCount(); v++) {
            if (graph.degree(v) == 0 && graph.vertexCount() > 1) {
                throw new IllegalArgumentException("agent " + v + " has no neighbour, so the baton cannot reach or leave it;"
                        + " use a connected graph");
            }
        }
        int[] path = new int[(int) iterations];
        int current = random.nextInt(graph.vertexCount());
        for (int k = 0; k < path.length; k++) {
            path[k] = current;
            int[] next = graph.neighbours(current);
            if (next.length > 0) {
                current = next[random.nextInt(next.length)];
            }
        }
        return path;
    }

    /** How many times each agent is active on the path (K_i after the whole walk). */
    public static long[] activations(int agents, int[] path) {
        long[] k = new long[agents];
        for (int i : path) {
            k[i]++;
        }
        return k;
    }

    /** The local communication involvement of a path: the most activations of one agent. */
    public static long lci(int agents, int[] path) {
        long m = 0;
        for (long k : activations(agents, path)) {
            m = Math.max(m, k);
        }
        return m;
    }

    /** The walk's stationary activation frequencies, {@code d_i / (2|E|)}. */
    public static double[] stationaryFrequencies(Graph graph) {
        double[] p = new double[graph.vertexCount()];
        for (int v = 0; v < p.length; v++) {
            p[v] = graph.degree(v) / (2.0 * graph.edgeCount());
        }
        return p;
    }
}
