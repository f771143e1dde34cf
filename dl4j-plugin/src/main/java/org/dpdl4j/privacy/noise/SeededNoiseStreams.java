package org.dpdl4j.privacy.noise;

/**
 * Reproducible streams derived from one master seed: fast, for experiments and tests. <b>Not secure</b>:
 * whoever knows the seed can regenerate every "secret" noise term.
 *
 * @param masterSeed the run's seed
 */
public record SeededNoiseStreams(long masterSeed) implements NoiseStreams {

    @Override
    public NoiseSource privateNoise(int node, long round) {
        return SeededNoiseSource.forKey(new NoiseKey(masterSeed, "private-noise", node, round));
    }

    @Override
    public NoiseSource pairwiseNoise(int edge, long round) {
        return SeededNoiseSource.forKey(new NoiseKey(masterSeed, "pairwise-noise", edge, round));
    }

    @Override
    public java.util.random.RandomGenerator sampling(int node, long round) {
        return new java.util.SplittableRandom(new NoiseKey(masterSeed, "sampling", node, round).seed());
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String description() {
        return "seeded streams (NOT secure, reproducible), master seed " + masterSeed;
    }
}
