package org.dpdl4j.audit;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Dirac gradient canaries (Steinke, Nasr and Jagielski 2023): canary k is {@code C e_j} on its own parameter
 * coordinate j, with one coin per canary, drawn with probability 1/2, saying whether it takes part. Placed on
 * coordinates where no training example ever has a gradient ({@link ZeroGradientCoordinates}), the released gradient
 * on coordinate j is exactly the canary's share, when it is sampled, plus the Gaussian noise: nothing of the data to
 * subtract, so the auditor faces the noise alone.
 *
 * <p>Only the coordinates are stored (m integers, not an [m, p] array); an included canary is sampled with the data
 * like any training example and adds C to its coordinate of the clipped sum.
 */
public final class DiracCanaries implements AuditCanaries {
    private final int[] coordinates;
    private final boolean[] coins;
    private final int[] includedRows;
    private final long parameters;
    private final double norm;
    private final DataType dataType;

    private DiracCanaries(int[] coordinates, boolean[] coins, long parameters, double norm, DataType dataType) {
        this.coordinates = coordinates;
        this.coins = coins;
        this.parameters = parameters;
        this.norm = norm;
        this.dataType = dataType;
        this.includedRows = java.util.stream.IntStream.range(0, coins.length).filter(i -> coins[i]).toArray();
    }

    /** Canaries on the given coordinates, one each, with secure coins. */
    public static DiracCanaries on(int[] coordinates, long parameters, double norm, DataType dataType) {
        return on(coordinates, parameters, norm, dataType, new SecureRandom());
    }

    /**
     * Canaries on the given coordinates, one each, with the coins from {@code coinRandom} (a seeded one makes the
     * audit repeatable, not secure).
     *
     * @param coordinates m distinct indices into the flattened parameters, e.g. from {@link ZeroGradientCoordinates}
     * @param parameters  p, the network's number of parameters
     * @param norm        C for a correct mechanism (a larger one models a mechanism that fails to clip)
     * @param dataType    the network's parameter type
     */
    public static DiracCanaries on(int[] coordinates, long parameters, double norm, DataType dataType,
                                   RandomGenerator coinRandom) {
        if (coordinates.length < 1) {
            throw new IllegalArgumentException("an audit needs at least one canary, got no coordinates"
                    + " (a few hundred to thousands give a useful bound)");
        }
        if (!(norm > 0) || Double.isInfinite(norm)) {
            throw new IllegalArgumentException("the canaries' norm must be a positive finite number (the clip C), got "
                    + norm);
        }
        Objects.requireNonNull(coinRandom, "coin randomness");
        int[] sorted = coordinates.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] < 0 || sorted[i] >= parameters) {
                throw new IllegalArgumentException("coordinate " + sorted[i] + " lies outside the " + parameters
                        + " parameters");
            }
            if (i > 0 && sorted[i] == sorted[i - 1]) {
                // Two canaries on one coordinate would add to each other's observation.
                throw new IllegalArgumentException("coordinate " + sorted[i] + " is given twice; each Dirac canary needs"
                        + " a coordinate of its own");
            }
        }
        boolean[] coins = new boolean[coordinates.length];
        for (int i = 0; i < coins.length; i++) {
            coins[i] = coinRandom.nextBoolean();
        }
        return new DiracCanaries(coordinates.clone(), coins, parameters, norm, dataType);
    }

    @Override
    public int count() {
        return includedRows.length;
    }

    @Override
    public void addClippedGradients(int[] sampled, INDArray clippedSum) {
        for (int s : sampled) {
            int j = coordinates[includedRows[s]];
            clippedSum.putScalar(j, clippedSum.getDouble(j) + norm);
        }
    }

    @Override
    public int canaries() {
        return coins.length;
    }

    @Override
    public boolean[] coins() {
        return coins.clone();
    }

    @Override
    public double norm() {
        return norm;
    }

    @Override
    public long parameters() {
        return parameters;
    }

    @Override
    public DataType dataType() {
        return dataType;
    }

    /** The inner product with {@code C e_j} is C times entry j: one gather of the m coordinates. */
    @Override
    public INDArray innerProducts(INDArray column) {
        return Nd4j.pullRows(column, 1, coordinates).muli(norm);
    }

    /** Each canary's coordinate (a copy). */
    public int[] coordinates() {
        return coordinates.clone();
    }

    @Override
    public String toString() {
        return "DiracCanaries[m=" + coins.length + ", included=" + includedRows.length + ", p=" + parameters
                + ", norm=" + norm + "]";
    }
}
