package org.dpdl4j.graph;

/**
 * An undirected edge {i, j} stored with {@code i < j}. Its column in the oriented incidence matrix
 * has {@code +1} at row i and {@code -1} at row j.
 *
 * @param i the smaller endpoint
 * @param j the larger endpoint
 */
public record Edge(int i, int j) implements Comparable<Edge> {

    /** Validates the canonical orientation. */
    public Edge {
        if (i < 0) {
            throw new IllegalArgumentException("edge (" + i + ", " + j + "): vertex ids must be non-negative");
        }
        if (i == j) {
            throw new IllegalArgumentException("edge (" + i + ", " + j + ") is a self loop at vertex " + i
                    + "; graphs here are simple, remove it");
        }
        if (i > j) {
            throw new IllegalArgumentException("edge (" + i + ", " + j + ") must be given with i < j; use Edge.between("
                    + i + ", " + j + ") to order the endpoints");
        }
    }

    /** The edge between two distinct vertices given in any order. */
    public static Edge between(int a, int b) {
        return a < b ? new Edge(a, b) : new Edge(b, a);
    }

    /** The endpoint that is not {@code v}. */
    public int other(int v) {
        if (v == i) {
            return j;
        }
        if (v == j) {
            return i;
        }
        throw new IllegalArgumentException("vertex " + v + " is not an endpoint of edge " + this);
    }

    @Override
    public int compareTo(Edge o) {
        int c = Integer.compare(i, o.i);
        return c != 0 ? c : Integer.compare(j, o.j);
    }

    @Override
    public String toString() {
        return "{" + i + ", " + j + "}";
    }
}
