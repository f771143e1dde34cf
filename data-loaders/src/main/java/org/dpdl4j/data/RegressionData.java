package org.dpdl4j.data;

import java.util.Arrays;
import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;

/**
 * A regression data set held in memory: an n x d feature matrix and an n x t target matrix of the
 * same floating-point type (DOUBLE for the synthetic least-squares problems, where exact optima are
 * checked to 1e-10).
 *
 * <p>As with {@link LabeledData}, the arrays are returned without copies and must not be modified.
 */
public final class RegressionData {
    private final String name;
    private final INDArray features;
    private final INDArray targets;

    /**
     * @param name     a short name used in reports
     * @param features n x d, one example per row
     * @param targets  n x t, the targets of each example (t = 1 for scalar regression)
     */
    public RegressionData(String name, INDArray features, INDArray targets) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(targets, "targets");
        if (features.rank() != 2 || targets.rank() != 2) {
            throw new IllegalArgumentException(name + ": features and targets must be 2-d matrices, got shapes "
                    + Arrays.toString(features.shape()) + " and " + Arrays.toString(targets.shape()));
        }
        if (features.rows() != targets.rows()) {
            throw new IllegalArgumentException(name + ": " + features.rows() + " feature rows but " + targets.rows()
                    + " target rows; each example needs one target row");
        }
        if (!features.dataType().isFPType() || features.dataType() != targets.dataType()) {
            throw new IllegalArgumentException(name + ": features (" + features.dataType() + ") and targets ("
                    + targets.dataType() + ") must share one floating-point type");
        }
        this.name = name;
        this.features = features;
        this.targets = targets;
    }

    /** The name given at construction. */
    public String name() {
        return name;
    }

    /** The n x d feature matrix (not a copy). */
    public INDArray features() {
        return features;
    }

    /** The n x t target matrix (not a copy). */
    public INDArray targets() {
        return targets;
    }

    /** The number of examples n. */
    public int size() {
        return features.rows();
    }

    /** The number of features d. */
    public int numFeatures() {
        return features.columns();
    }

    /** The number of targets per example t. */
    public int numTargets() {
        return targets.columns();
    }

    /** A DL4J data set with these features as inputs and the targets as labels. */
    public DataSet toDataSet() {
        return new DataSet(features, targets);
    }

    @Override
    public String toString() {
        return "RegressionData[" + name + ", " + size() + " x " + numFeatures() + " -> " + numTargets() + "]";
    }
}
