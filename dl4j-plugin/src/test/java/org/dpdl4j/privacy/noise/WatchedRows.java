package org.dpdl4j.privacy.noise;

/**
 * Row-by-row streams that call {@link #before} as each row's source is asked for (which thread, which row), for tests
 * that watch or disturb how a draw's rows are shared out.
 */
public abstract class WatchedRows implements NoiseStreams {
    private final RowByRowStreams rows;
    private final String description;

    protected WatchedRows(RowByRowStreams rows, String description) {
        this.rows = rows;
        this.description = description;
    }

    /** Called on the drawing thread before row {@code id} of a draw is drawn (an edge's row when pairwise). */
    protected abstract void before(boolean pairwise, int id, long round);

    @Override
    public NoiseSource privateNoise(int node, long round) {
        before(false, node, round);
        return rows.privateNoise(node, round);
    }

    @Override
    public NoiseSource pairwiseNoise(int edge, long round) {
        before(true, edge, round);
        return rows.pairwiseNoise(edge, round);
    }

    @Override
    public java.util.random.RandomGenerator sampling(int node, long round) {
        return rows.sampling(node, round);
    }

    @Override
    public boolean drawsRowByRow() {
        return rows.drawsRowByRow();
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String description() {
        return description + " " + rows.description();
    }
}
