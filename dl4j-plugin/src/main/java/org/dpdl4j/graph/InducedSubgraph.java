package org.dpdl4j.graph;

import java.util.Arrays;
import java.util.OptionalInt;

/**
 * A subgraph induced by a subset of the vertices of a parent graph, renumbered {@code 0..k-1} in
 * increasing order of the original ids, with the mapping back to the parent's ids.
 */
public final class InducedSubgraph {
    private final Graph graph;
    private final int[] originalIds;
    private final int parentVertexCount;

    InducedSubgraph(Graph graph, int[] originalIds, int parentVertexCount) {
        this.graph = graph;
        this.originalIds = originalIds;
        this.parentVertexCount = parentVertexCount;
    }

    /** The subgraph with its own vertex ids {@code 0..k-1}. */
    public Graph graph() {
        return graph;
    }

    /** Parent id of local vertex {@code local}. */
    public int originalId(int local) {
        if (local < 0 || local >= originalIds.length) {
            throw new IllegalArgumentException("local vertex " + local + " is out of range 0.." + (originalIds.length - 1));
        }
        return originalIds[local];
    }

    /** Parent ids of the local vertices, in local order (increasing). */
    public int[] originalIds() {
        return originalIds.clone();
    }

    /** Local id of a parent vertex, empty when that vertex is not in the subgraph. */
    public OptionalInt localId(int original) {
        if (original < 0 || original >= parentVertexCount) {
            throw new IllegalArgumentException("vertex " + original + " is out of range for the parent graph of "
                    + parentVertexCount + " vertices");
        }
        int k = Arrays.binarySearch(originalIds, original);
        return k >= 0 ? OptionalInt.of(k) : OptionalInt.empty();
    }

    @Override
    public String toString() {
        return "InducedSubgraph" + Arrays.toString(originalIds) + " " + graph;
    }
}
