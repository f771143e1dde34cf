package org.dpdl4j.graph;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects the edges of a simple undirected graph on vertices {@code 0..n-1}, rejecting self loops,
 * duplicate edges and vertices out of range as they are added.
 */
public final class GraphBuilder {
    private final int vertexCount;
    private final List<Edge> edges = new ArrayList<>();
    private final Set<Long> seen = new HashSet<>();

    GraphBuilder(int vertexCount) {
        Graph.requireVertexCount(vertexCount);
        this.vertexCount = vertexCount;
    }

    /** Adds the edge {a, b}; the order of the endpoints does not matter. */
    public GraphBuilder addEdge(int a, int b) {
        requireVertex(a, a, b);
        requireVertex(b, a, b);
        if (a == b) {
            throw new IllegalArgumentException("edge (" + a + ", " + b + ") is a self loop at vertex " + a
                    + "; graphs here are simple, remove it");
        }
        Edge e = Edge.between(a, b);
        if (!seen.add(key(e))) {
            throw new IllegalArgumentException("edge " + e + " is given twice; graphs here are simple, remove the duplicate");
        }
        edges.add(e);
        return this;
    }

    /** Whether {a, b} (in any order) was already added. */
    public boolean hasEdge(int a, int b) {
        return a != b && seen.contains(key(Edge.between(a, b)));
    }

    /** Number of edges added so far. */
    public int edgeCount() {
        return edges.size();
    }

    /** The number of vertices of the graph being built. */
    public int vertexCount() {
        return vertexCount;
    }

    /** The immutable graph. */
    public Graph build() {
        return new Graph(vertexCount, edges);
    }

    private void requireVertex(int v, int a, int b) {
        if (v < 0 || v >= vertexCount) {
            throw new IllegalArgumentException("vertex " + v + " of edge (" + a + ", " + b + ") is out of range: the graph has "
                    + vertexCount + " vertices with ids 0.." + (vertexCount - 1));
        }
    }

    private static long key(Edge e) {
        return ((long) e.i() << 32) | e.j();
    }
}
