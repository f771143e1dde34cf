package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The random streams of a multi-party protocol, one per (node, round) for private noise and per
 * (edge, round) for pairwise noise. Streams are stateless functions of their key, so a resumed run
 * draws exactly what an uninterrupted one would (for seeded streams) and no draw is reused across rounds.
 */
public interface NoiseStreams {

    /** The private noise of {@code node} at {@code round}: only that node can derive it. */
    NoiseSource privateNoise(int node, long round);

    /** The noise shared by the two endpoints of {@code edge} at {@code round}: only they can derive it. */
    NoiseSource pairwiseNoise(int edge, long round);

    /** The randomness {@code node} samples its batch of {@code round} with. */
    java.util.random.RandomGenerator sampling(int node, long round);

    /**
     * Adds every node's private noise of {@code round} to the rows of {@code rows} ([n, p], row i = node i).
     * Implementations may draw all rows at once when that keeps each row a function of its own key.
     */
    default void addPrivateNoise(INDArray rows, long round, double std) {
        eachRow(rows, i -> privateNoise(i, round), false, std, drawsRowByRow());
    }

    /** Adds every edge's pairwise noise of {@code round} to the rows of {@code rows} ([|E|, p], row e = edge e). */
    default void addPairwiseNoise(INDArray rows, long round, double std) {
        eachRow(rows, e -> pairwiseNoise(e, round), false, std, drawsRowByRow());
    }

    /** Overwrites the rows of {@code rows} with every node's private noise of {@code round}: {@link #addPrivateNoise} onto zeros. */
    default void writePrivateNoise(INDArray rows, long round, double std) {
        eachRow(rows, i -> privateNoise(i, round), true, std, drawsRowByRow());
    }

    /** Overwrites the rows of {@code rows} with every edge's pairwise noise of {@code round}: {@link #addPairwiseNoise} onto zeros. */
    default void writePairwiseNoise(INDArray rows, long round, double std) {
        eachRow(rows, e -> pairwiseNoise(e, round), true, std, drawsRowByRow());
    }

    /**
     * Adds the private noise of some nodes in {@code round} to the rows of {@code rows} ([k, p], row r = node
     * {@code nodes[r]}, ids increasing): for each of them the values {@link #addPrivateNoise(INDArray, long, double)}
     * adds to that node's row of an [n, p] array. What a worker holding only these nodes draws.
     */
    default void addPrivateNoise(INDArray rows, int[] nodes, long round, double std) {
        int[] ids = StreamRows.checked(nodes, rows, "node");
        eachRow(rows, r -> privateNoise(ids[r], round), false, std, drawsRowByRow());
    }

    /** Overwrites the rows of {@code rows} with the private noise of some nodes: {@link #addPrivateNoise(INDArray, int[], long, double)} onto zeros. */
    default void writePrivateNoise(INDArray rows, int[] nodes, long round, double std) {
        int[] ids = StreamRows.checked(nodes, rows, "node");
        eachRow(rows, r -> privateNoise(ids[r], round), true, std, drawsRowByRow());
    }

    /**
     * Overwrites the rows of {@code rows} ([k, p], row r = edge {@code edges[r]}, ids increasing) with the pairwise
     * noise of those edges in {@code round}: the rows {@link #writePairwiseNoise(INDArray, long, double)} gives them in
     * an [|E|, p] array. What the two ends of each edge draw.
     */
    default void writePairwiseNoise(INDArray rows, int[] edges, long round, double std) {
        int[] ids = StreamRows.checked(edges, rows, "edge");
        eachRow(rows, r -> pairwiseNoise(ids[r], round), true, std, drawsRowByRow());
    }

    /**
     * The streams a worker that holds only the given nodes (and the edges they share secrets on) needs: the same
     * values for those, and nothing it should not know. The default, for streams anyone with the seed can derive
     * anyway, is these streams themselves.
     *
     * @param nodes the nodes held, increasing
     * @param edges the edges with an end among them, increasing
     */
    default NoiseStreams restrictedTo(int[] nodes, int[] edges) {
        return this;
    }

    /**
     * Adds to row r of {@code rows} ([k, p]) the private noise of party {@code parties[r]} in {@code round}, drawn from
     * that party's own stream ({@link #privateNoise}) whatever the streams' all-rows draws do, the ids in any order:
     * what each listed party adds to its own message (local DP-FedAvg's clients).
     */
    default void addOwnPrivateNoise(INDArray rows, int[] parties, long round, double std) {
        if (rows.rank() != 2 || rows.size(0) != parties.length) {
            throw new IllegalArgumentException("the noise of " + parties.length + " parties needs a [" + parties.length
                    + ", p] array, got " + java.util.Arrays.toString(rows.shape()));
        }
        eachRow(rows, r -> privateNoise(parties[r], round), false, std, drawsRowByRow());
    }

    /**
     * Row r of {@code rows} from {@code source(r)}: written over, or added to. With {@code parallel} (streams that draw
     * row by row, each row a function of its own key) the rows are drawn on the common fork-join pool's threads too:
     * the same values as one thread draws, in a fraction of the time on a many-core host.
     */
    private static void eachRow(INDArray rows, java.util.function.IntFunction<NoiseSource> source, boolean write, double std,
                                boolean parallel) {
        java.util.stream.IntStream each = java.util.stream.IntStream.range(0, (int) rows.size(0));
        // A row that fails is thrown only once every row task has returned: a parallel forEach would throw while other
        // threads still write rows into an array (a round's workspace, say) the caller may then reuse.
        java.util.concurrent.atomic.AtomicReference<RuntimeException> failed = new java.util.concurrent.atomic.AtomicReference<>();
        (parallel ? each.parallel() : each).forEach(r -> {
            if (failed.get() != null) {
                return;   // a row failed: the rest are not drawn
            }
            try {
                if (write) {
                    source.apply(r).writeGaussian(rows.getRow(r), std);
                } else {
                    source.apply(r).addGaussian(rows.getRow(r), std);
                }
            } catch (RuntimeException e) {
                failed.compareAndSet(null, e);
            }
        });
        if (failed.get() != null) {
            throw failed.get();
        }
    }

    /**
     * True when the all-rows methods draw row i from {@link #privateNoise}{@code (i, round)} or
     * {@link #pairwiseNoise}{@code (i, round)} alone, as the defaults do: rows may then be drawn in any order, on several
     * threads, with the same result. An implementation that draws all rows from one stream must return false; the
     * default is false, so implementations opt in.
     */
    default boolean drawsRowByRow() {
        return false;
    }

    /** True when no party other than the intended ones can predict any stream. */
    boolean isSecure();

    /** One line for logs and statements. */
    String description();
}
