package org.dpdl4j.privacy.noise;

/**
 * Reproducible streams from one master seed by Philox counters ({@link PhiloxGaussian}): row i of a round's private
 * noise is stream {@link #privateStream}{@code (i, round)}, row e of its pairwise noise stream
 * {@link #pairwiseStream}{@code (e, round)}, each row's values from index 0. Every row is a function of its own
 * counter, so dpdl4j's CUDA engine draws a round's rows on the GPU, in parallel over nodes and edges, with the values
 * a CPU run draws here. <b>Not secure</b>: whoever knows the seed can regenerate every "secret" noise term. Sampling
 * randomness is that of {@link SeededNoiseStreams} with the same seed.
 *
 * @param masterSeed the run's seed, the key of every stream
 */
public record PhiloxNoiseStreams(long masterSeed) implements NoiseStreams, java.io.Serializable {
    /** Stream ids: two bits of purpose, 30 of node or edge, 32 of round. */
    private static final long PRIVATE = 1L << 62;
    private static final long PAIRWISE = 2L << 62;
    private static final int ID_BITS = 30;

    /** The stream of node {@code node}'s private noise in {@code round}. */
    public static long privateStream(int node, long round) {
        return PRIVATE | id(node, round);
    }

    /** The stream of edge {@code edge}'s pairwise noise in {@code round}. */
    public static long pairwiseStream(int edge, long round) {
        return PAIRWISE | id(edge, round);
    }

    /** How far apart the streams of consecutive nodes (or edges) of one round are. */
    public static long rowStride() {
        return 1L << 32;
    }

    private static long id(int party, long round) {
        if (party < 0 || party >= 1 << ID_BITS) {
            throw new IllegalArgumentException("Philox streams number parties and edges below 2^30, got " + party);
        }
        if (round < 0 || round > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("Philox streams number rounds below 2^32, got " + round);
        }
        return ((long) party << 32) | round;
    }

    @Override
    public NoiseSource privateNoise(int node, long round) {
        return new PhiloxNoiseSource(masterSeed, privateStream(node, round));
    }

    @Override
    public NoiseSource pairwiseNoise(int edge, long round) {
        return new PhiloxNoiseSource(masterSeed, pairwiseStream(edge, round));
    }

    @Override
    public java.util.random.RandomGenerator sampling(int node, long round) {
        return new SeededNoiseStreams(masterSeed).sampling(node, round);
    }

    @Override
    public boolean drawsRowByRow() {
        return true;
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String description() {
        return "Philox streams (NOT secure, reproducible, drawn on the GPU with the model), master seed " + masterSeed;
    }
}
