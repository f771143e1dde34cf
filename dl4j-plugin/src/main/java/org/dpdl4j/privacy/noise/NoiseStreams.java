package org.dpdl4j.privacy.noise;

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

    /** True when no party other than the intended ones can predict any stream. */
    boolean isSecure();

    /** One line for logs and statements. */
    String description();
}
