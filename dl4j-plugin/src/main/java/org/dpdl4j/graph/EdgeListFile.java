package org.dpdl4j.graph;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Plain-text edge lists: one edge {@code i j} per line (vertex ids, whitespace separated),
 * {@code #} starts a comment that runs to the end of the line, blank lines are ignored. Every error
 * names the file and the line: malformed lines, negative or out-of-range ids, self loops and
 * duplicate edges (in either orientation) are all rejected.
 */
public final class EdgeListFile {
    private EdgeListFile() {
    }

    /** Reads a graph on {@code n} vertices; ids must lie in {@code 0..n-1}. */
    public static Graph read(Path file, int n) {
        Graph.requireVertexCount(n);
        return build(file, parse(file), n);
    }

    /** Reads a graph whose vertex count is the largest id in the file plus one. */
    public static Graph read(Path file) {
        List<int[]> rows = parse(file);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(file + ": no edge found, so the number of vertices is unknown; "
                    + "add edges or give the vertex count explicitly");
        }
        int max = 0;
        for (int[] r : rows) {
            max = Math.max(max, Math.max(r[0], r[1]));
        }
        return build(file, rows, max + 1);
    }

    /** Writes a graph in this format (one edge per line, in edge-index order). */
    public static void write(Graph graph, Path file) {
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(graph.vertexCount()).append(" vertices, ").append(graph.edgeCount()).append(" edges\n");
        for (Edge e : graph.edges()) {
            sb.append(e.i()).append(' ').append(e.j()).append('\n');
        }
        try {
            Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot write edge list " + file, ex);
        }
    }

    /**
     * Refuses a path that is not a readable file (missing, a directory, ...), naming the problem.
     *
     * @throws IllegalArgumentException saying what is wrong with the path and what to do
     */
    static Path requireReadable(Path file) {
        String problem = Files.isDirectory(file) ? "is a directory; give the edge list file itself"
                : !Files.exists(file) ? "does not exist; check the path"
                : !Files.isReadable(file) ? "cannot be read (permission denied); give this user read permission on it"
                : null;
        if (problem != null) {
            throw new IllegalArgumentException("the edge list " + file + " " + problem);
        }
        return file;
    }

    /** Each entry: {i, j, lineNumber}. */
    private static List<int[]> parse(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(requireReadable(file), StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot read the edge list " + file + ": " + ex.getMessage(), ex);
        }
        List<int[]> rows = new ArrayList<>();
        for (int k = 0; k < lines.size(); k++) {
            int lineNo = k + 1;
            String line = lines.get(k);
            int hash = line.indexOf('#');
            String body = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (body.isEmpty()) {
                continue;
            }
            String[] tokens = body.split("\\s+");
            if (tokens.length != 2) {
                throw new IllegalArgumentException(where(file, lineNo) + "expected two vertex ids 'i j', found " + tokens.length
                        + " fields in '" + line.strip() + "'");
            }
            int i = parseId(file, lineNo, tokens[0]);
            int j = parseId(file, lineNo, tokens[1]);
            if (i == j) {
                throw new IllegalArgumentException(where(file, lineNo) + "self loop " + i + " " + j
                        + "; graphs here are simple, remove the line");
            }
            rows.add(new int[] {i, j, lineNo});
        }
        return rows;
    }

    private static Graph build(Path file, List<int[]> rows, int n) {
        Map<Edge, Integer> firstLine = new HashMap<>();
        GraphBuilder b = Graph.builder(n);
        for (int[] r : rows) {
            for (int t = 0; t < 2; t++) {
                if (r[t] >= n) {
                    throw new IllegalArgumentException(where(file, r[2]) + "vertex " + r[t] + " is out of range: the graph has "
                            + n + " vertices with ids 0.." + (n - 1) + "; give as many nodes as the file's vertices (--nodes "
                            + (r[t] + 1) + " or more), or renumber the file's vertices from 0");
                }
            }
            Edge e = Edge.between(r[0], r[1]);
            Integer previous = firstLine.putIfAbsent(e, r[2]);
            if (previous != null) {
                throw new IllegalArgumentException(where(file, r[2]) + "edge " + e + " repeats line " + previous
                        + "; graphs here are simple, remove the duplicate");
            }
            b.addEdge(r[0], r[1]);
        }
        return b.build();
    }

    private static int parseId(Path file, int lineNo, String token) {
        int v;
        try {
            v = Integer.parseInt(token);
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException(where(file, lineNo) + "'" + token + "' is not a vertex id (a non-negative integer)");
        }
        if (v < 0) {
            throw new IllegalArgumentException(where(file, lineNo) + "vertex id " + v + " is negative; ids start at 0");
        }
        return v;
    }

    private static String where(Path file, int lineNo) {
        return file + ":" + lineNo + ": ";
    }
}
