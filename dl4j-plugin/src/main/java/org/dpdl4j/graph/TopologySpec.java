package org.dpdl4j.graph;

import java.nio.file.Path;
import java.util.Locale;

/**
 * A topology named on the command line, to be built for a given number of nodes and seed.
 *
 * <p>Names: {@code ring}, {@code torus} (square, from the node count) or {@code torus:RxC},
 * {@code complete}, {@code star}, {@code path}, {@code regular:D}, {@code erdos-renyi:P},
 * {@code k-out:K}, {@code file:PATH}. Node counts are given separately ({@link #resolve(String, String, long)}
 * also accepts {@code RxC} as the node count of a torus).
 */
public sealed interface TopologySpec {

    /** Builds the graph on {@code n} nodes; random topologies use {@code seed}. */
    Graph build(int n, long seed);

    /** The canonical name, parseable by {@link #parse(String)}. */
    String name();

    /** Parses a topology name (case-insensitive keyword; the file path is taken verbatim). */
    static TopologySpec parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty topology name; " + KNOWN);
        }
        String t = text.strip();
        int colon = t.indexOf(':');
        String key = (colon < 0 ? t : t.substring(0, colon)).toLowerCase(Locale.ROOT);
        String arg = colon < 0 ? null : t.substring(colon + 1);
        switch (key) {
            case "ring":
                noArgument(key, arg);
                return new Ring();
            case "complete":
                noArgument(key, arg);
                return new Complete();
            case "star":
                noArgument(key, arg);
                return new Star();
            case "path":
                noArgument(key, arg);
                return new PathGraph();
            case "torus":
                if (arg == null) {
                    return new SquareTorus();
                }
                int[] shape = parseShape(arg, "topology '" + t + "'");
                return new Torus(shape[0], shape[1]);
            case "regular":
                return new RandomRegular(parseInt(arg, key, "D", "the degree"));
            case "erdos-renyi":
                return new ErdosRenyi(parseDouble(arg, key, "P", "the edge probability"));
            case "k-out":
                return new KOut(parseInt(arg, key, "K", "the number of picks per node"));
            case "file":
                if (arg == null || arg.isEmpty()) {
                    throw new IllegalArgumentException("topology 'file' needs a path: file:PATH");
                }
                return new EdgeList(EdgeListFile.requireReadable(Path.of(arg)));   // refused before any work
            default:
                throw new IllegalArgumentException("unknown topology '" + text + "'; " + KNOWN);
        }
    }

    /**
     * Builds a graph from command-line texts: a topology name and a node count, which is an integer
     * or, for a torus, {@code RxC}.
     */
    static Graph resolve(String topology, String nodes, long seed) {
        TopologySpec spec = parse(topology);
        if (nodes == null || nodes.isBlank()) {
            throw new IllegalArgumentException("the number of nodes is missing; give an integer (or RxC for a torus)");
        }
        String s = nodes.strip();
        if (s.toLowerCase(Locale.ROOT).contains("x")) {
            int[] shape = parseShape(s, "node count '" + s + "'");
            if (spec instanceof SquareTorus) {
                spec = new Torus(shape[0], shape[1]);
            } else if (!(spec instanceof Torus)) {
                throw new IllegalArgumentException("node count '" + s + "' has the form RxC, which only a torus accepts; "
                        + "give an integer number of nodes for topology '" + spec.name() + "'");
            }
            return spec.build(shape[0] * shape[1], seed);
        }
        int n;
        try {
            n = Integer.parseInt(s);
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("node count '" + s + "' is not an integer (or RxC for a torus)");
        }
        return spec.build(n, seed);
    }

    /** Ring. */
    record Ring() implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            return Topologies.ring(n);
        }

        @Override
        public String name() {
            return "ring";
        }
    }

    /** Square torus whose side is the square root of the node count. */
    record SquareTorus() implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            return Topologies.torus(n);
        }

        @Override
        public String name() {
            return "torus";
        }
    }

    /** Torus of a given shape; the node count must equal rows * cols. */
    record Torus(int rows, int cols) implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            if ((long) rows * cols != n) {
                throw new IllegalArgumentException("torus " + rows + "x" + cols + " has " + ((long) rows * cols)
                        + " nodes, but " + n + " were requested; give " + ((long) rows * cols) + " nodes, or a shape"
                        + " whose rows x columns is " + n);
            }
            return Topologies.torus(rows, cols);
        }

        @Override
        public String name() {
            return "torus:" + rows + "x" + cols;
        }
    }

    /** Complete graph. */
    record Complete() implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            return Topologies.complete(n);
        }

        @Override
        public String name() {
            return "complete";
        }
    }

    /** Star centred at node 0. */
    record Star() implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            return Topologies.star(n);
        }

        @Override
        public String name() {
            return "star";
        }
    }

    /** Path. */
    record PathGraph() implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            return Topologies.path(n);
        }

        @Override
        public String name() {
            return "path";
        }
    }

    /** Connected random d-regular graph. */
    record RandomRegular(int degree) implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            return Topologies.randomRegular(n, degree, seed);
        }

        @Override
        public String name() {
            return "regular:" + degree;
        }
    }

    /** Connected Erdos-Renyi G(n, p). */
    record ErdosRenyi(double p) implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            return Topologies.erdosRenyi(n, p, seed);
        }

        @Override
        public String name() {
            return "erdos-renyi:" + p;
        }
    }

    /** Random k-out graph. */
    record KOut(int k) implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            return Topologies.randomKOut(n, k, seed);
        }

        @Override
        public String name() {
            return "k-out:" + k;
        }
    }

    /** Edge-list file; the node count bounds the ids. */
    record EdgeList(Path file) implements TopologySpec {
        @Override
        public Graph build(int n, long seed) {
            return EdgeListFile.read(file, n);
        }

        @Override
        public String name() {
            return "file:" + file;
        }
    }

    /** Human-readable list of the accepted names. */
    String KNOWN = "known topologies: ring, torus (or torus:RxC), complete, star, path, regular:D, erdos-renyi:P, k-out:K, file:PATH";

    private static void noArgument(String key, String arg) {
        if (arg != null) {
            throw new IllegalArgumentException("topology '" + key + "' takes no argument, got '" + key + ":" + arg + "'");
        }
    }

    private static int parseInt(String arg, String key, String symbol, String meaning) {
        if (arg == null || arg.isEmpty()) {
            throw new IllegalArgumentException("topology '" + key + "' needs " + meaning + ": " + key + ":" + symbol);
        }
        try {
            return Integer.parseInt(arg.strip());
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("topology '" + key + ":" + arg + "': " + meaning + " '" + arg + "' is not an integer");
        }
    }

    private static double parseDouble(String arg, String key, String symbol, String meaning) {
        if (arg == null || arg.isEmpty()) {
            throw new IllegalArgumentException("topology '" + key + "' needs " + meaning + ": " + key + ":" + symbol);
        }
        try {
            return Double.parseDouble(arg.strip());
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException("topology '" + key + ":" + arg + "': " + meaning + " '" + arg + "' is not a number");
        }
    }

    private static int[] parseShape(String text, String what) {
        String[] parts = text.strip().toLowerCase(Locale.ROOT).split("x", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException(what + " is not of the form RxC (e.g. 4x4)");
        }
        try {
            return new int[] {Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip())};
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException(what + " is not of the form RxC with integers R and C (e.g. 4x4)");
        }
    }
}
