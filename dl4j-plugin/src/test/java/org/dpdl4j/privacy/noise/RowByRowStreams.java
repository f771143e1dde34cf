package org.dpdl4j.privacy.noise;

/**
 * Reproducible streams that draw every row from its own key (the seeded per-node and per-edge sources) through the
 * interface's row-by-row defaults, as the secure streams do, and may or may not declare it ({@link #drawsRowByRow}).
 */
public record RowByRowStreams(SeededNoiseStreams seeded, boolean declared) implements NoiseStreams {

    @Override
    public NoiseSource privateNoise(int node, long round) {
        return seeded.privateNoise(node, round);
    }

    @Override
    public NoiseSource pairwiseNoise(int edge, long round) {
        return seeded.pairwiseNoise(edge, round);
    }

    @Override
    public java.util.random.RandomGenerator sampling(int node, long round) {
        return seeded.sampling(node, round);
    }

    @Override
    public boolean drawsRowByRow() {
        return declared;
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String description() {
        return "row by row from " + seeded.description();
    }
}
