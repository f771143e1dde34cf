package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Reproducible streams derived from one master seed: fast, for experiments and tests. <b>Not secure</b>:
 * whoever knows the seed can regenerate every "secret" noise term.
 *
 * <p>For speed, the all-nodes and all-edges methods draw a round's noise for every row in one call from
 * the stream keyed by (seed, purpose, round); each row is then a function of that key and its index,
 * just not the same numbers as {@link #privateNoise}/{@link #pairwiseNoise} for that row would give. A worker that
 * holds only some of the rows ({@link #addPrivateNoise(INDArray, int[], long, double)} and the like) walks the same
 * stream past the rows before each of its own, so it gets exactly the values the all-rows draw gives them.
 *
 * @param masterSeed the run's seed
 */
public record SeededNoiseStreams(long masterSeed) implements NoiseStreams, java.io.Serializable {

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

    @Override
    public void addPrivateNoise(INDArray rows, int[] nodes, long round, double std) {
        someRows("private-noise-all", rows, StreamRows.checked(nodes, rows, "node"), round, std, false);
    }

    @Override
    public void writePrivateNoise(INDArray rows, int[] nodes, long round, double std) {
        someRows("private-noise-all", rows, StreamRows.checked(nodes, rows, "node"), round, std, true);
    }

    @Override
    public void writePairwiseNoise(INDArray rows, int[] edges, long round, double std) {
        someRows("pairwise-noise-all", rows, StreamRows.checked(edges, rows, "edge"), round, std, true);
    }

    /**
     * Rows {@code ids} of a round's all-rows draw. The stream is drawn past the rows before each one (the ziggurat
     * consumes a varying number of words per value, so there is no jumping ahead), and each row is drawn into a
     * contiguous scratch row: the same arithmetic as the all-rows draw, which writes straight into its array.
     */
    private void someRows(String purpose, INDArray rows, int[] ids, long round, double std, boolean write) {
        if (NoiseChecks.skip(rows, std)) {
            if (write) {
                rows.assign(0);
            }
            return;
        }
        SeededNoiseSource stream = allRows(purpose, round);
        long p = rows.size(1);
        INDArray scratch = Nd4j.createUninitializedDetached(rows.dataType(), p);
        long position = 0;
        for (int r = 0; r < ids.length; r++) {
            stream.skip((ids[r] - position) * p);
            INDArray row = rows.getRow(r);
            if (write) {
                stream.writeGaussian(scratch, std);
            } else {
                scratch.assign(row);
                stream.addGaussian(scratch, std);
            }
            row.assign(scratch);
            position = ids[r] + 1L;
        }
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
