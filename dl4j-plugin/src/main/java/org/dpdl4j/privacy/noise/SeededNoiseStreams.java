package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Reproducible streams derived from one master seed: fast, for experiments and tests. <b>Not secure</b>:
 * whoever knows the seed can regenerate every "secret" noise term.
 *
 * <p>For speed, the all-nodes and all-edges methods draw a round's noise for every row in one call from
 * the stream keyed by (seed, purpose, round); each row is then a function of that key and its index,
 * just not the same numbers as {@link #privateNoise}/{@link #pairwiseNoise} for that row would give.
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
    public void addPrivateNoise(INDArray rows, long round, double std) {
        allRows("private-noise-all", round).addGaussian(rows, std);
    }

    @Override
    public void addPairwiseNoise(INDArray rows, long round, double std) {
        allRows("pairwise-noise-all", round).addGaussian(rows, std);
    }

    @Override
    public void writePrivateNoise(INDArray rows, long round, double std) {
        allRows("private-noise-all", round).writeGaussian(rows, std);
    }

    @Override
    public void writePairwiseNoise(INDArray rows, long round, double std) {
        allRows("pairwise-noise-all", round).writeGaussian(rows, std);
    }

    /** The one stream a round's rows of one kind are drawn from, row after row. */
    private SeededNoiseSource allRows(String purpose, long round) {
        return SeededNoiseSource.forKey(new NoiseKey(masterSeed, purpose, -1, round));
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
