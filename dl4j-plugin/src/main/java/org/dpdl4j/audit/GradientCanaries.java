package org.dpdl4j.audit;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * White-box gradient canaries for central DP-SGD: m random directions in parameter space, each scaled to a norm
 * (the clip C for a correct mechanism), and one coin per canary, drawn independently with probability 1/2, that says
 * whether the canary takes part in the run. An included canary is a training example whose clipped gradient is its
 * vector at every step: the trainer samples it with the data ({@link org.dpdl4j.optim.PlantedExamples}) and adds its vector to the
 * clipped sum when it is sampled. Excluded canaries never touch the run.
 *
 * <p>The vectors are held as one [m, p] array (a step gathers the few sampled rows and adds their sum); the
 * directions come from a seed (they are public to the auditor; only the coins must be unpredictable to the
 * mechanism, and come from {@link SecureRandom} unless the caller gives a generator).
 */
public final class GradientCanaries implements AuditCanaries {
    private final INDArray vectors;
    private final boolean[] coins;
    private final int[] includedRows;
    private final double norm;

    private GradientCanaries(INDArray vectors, boolean[] coins, double norm) {
        this.vectors = vectors;
        this.coins = coins;
        this.norm = norm;
        this.includedRows = java.util.stream.IntStream.range(0, coins.length).filter(i -> coins[i]).toArray();
    }

    /**
     * Draws m canaries of the given norm in a p-dimensional parameter space, with secure coins.
     *
     * @param count         m &gt;= 1
     * @param parameters    p, the network's number of parameters
     * @param norm          each vector's L2 norm: the clip C for a correct mechanism (a larger one models a mechanism
     *                      that fails to clip, for testing the audit)
     * @param dataType      the network's parameter type
     * @param directionSeed seed of the random directions
     */
    public static GradientCanaries draw(int count, long parameters, double norm, DataType dataType, long directionSeed) {
        return draw(count, parameters, norm, dataType, directionSeed, new SecureRandom());
    }

    /** As above, with the coins from {@code coinRandom} (a seeded one makes the audit repeatable, not secure). */
    public static GradientCanaries draw(int count, long parameters, double norm, DataType dataType, long directionSeed,
                                        RandomGenerator coinRandom) {
        if (count < 1) {
            throw new IllegalArgumentException("an audit needs at least one canary, got " + count
                    + " (a few hundred to thousands give a useful bound)");
        }
        if (parameters < 1) {
            throw new IllegalArgumentException("the parameter space needs at least one dimension, got " + parameters);
        }
        if (!(norm > 0) || Double.isInfinite(norm)) {
            throw new IllegalArgumentException("the canaries' norm must be a positive finite number (the clip C), got "
                    + norm);
        }
        Objects.requireNonNull(coinRandom, "coin randomness");
        // Drawn in the network's type: the [m, p] array is the audit's largest, so no double copy of it is made.
        INDArray v = Nd4j.randn(Nd4j.createUninitialized(dataType, count, parameters),
                Nd4j.getRandomFactory().getNewRandomInstance(directionSeed));
        INDArray rowNorms = v.norm2(1).reshape(count, 1);
        v.diviColumnVector(rowNorms).muli(norm);
        boolean[] coins = new boolean[count];
        for (int i = 0; i < count; i++) {
            coins[i] = coinRandom.nextBoolean();
        }
        return new GradientCanaries(v, coins, norm);
    }

    @Override
    public int count() {
        return includedRows.length;
    }

    @Override
    public void addClippedGradients(int[] sampled, INDArray clippedSum) {
        if (sampled.length == 0) {
            return;
        }
        int[] rows = new int[sampled.length];
        for (int i = 0; i < sampled.length; i++) {
            rows[i] = includedRows[sampled[i]];
        }
        INDArray sum = Nd4j.pullRows(vectors, 1, rows).sum(0);
        clippedSum.addi(sum.reshape(clippedSum.shape()).castTo(clippedSum.dataType()));
    }

    @Override
    public int canaries() {
        return coins.length;
    }

    @Override
    public boolean[] coins() {
        return coins.clone();
    }

    /** The canaries' vectors, [m, p] (the array itself: do not modify). */
    public INDArray vectors() {
        return vectors;
    }

    @Override
    public double norm() {
        return norm;
    }

    @Override
    public long parameters() {
        return vectors.size(1);
    }

    @Override
    public DataType dataType() {
        return vectors.dataType();
    }

    /** One [m, p] x [p, 1] product: every canary's inner product at once. */
    @Override
    public INDArray innerProducts(INDArray column) {
        return vectors.mmul(column);
    }

    @Override
    public String toString() {
        return "GradientCanaries[m=" + coins.length + ", included=" + includedRows.length + ", p=" + vectors.size(1)
                + ", norm=" + norm + "]";
    }

    /** The included canaries' indices among all m (ascending). */
    int[] includedRows() {
        return Arrays.copyOf(includedRows, includedRows.length);
    }
}
