package org.dpdl4j.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The examples a run trains on: features [N, nIn], labels [N, k] in the layout the model's loss expects, and for
 * classification each example's class (for splits that follow the labels, such as Dirichlet label skew).
 *
 * @param features     one row per example
 * @param labels       one row per example
 * @param classLabels  the class of each example, or null for regression
 * @param numClasses   the number of classes, or 0 for regression
 */
public record TrainingSet(INDArray features, INDArray labels, int[] classLabels, int numClasses) {
    public TrainingSet {
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(labels, "labels");
        if (features.rank() != 2 || labels.rank() != 2 || features.size(0) != labels.size(0)) {
            throw new IllegalArgumentException("a training set needs feature and label matrices with one row per example;"
                    + " got shapes " + java.util.Arrays.toString(features.shape()) + " and " + java.util.Arrays.toString(labels.shape()));
        }
        if (features.size(0) == 0) {
            throw new IllegalArgumentException("a training set needs at least one example");
        }
        if (classLabels != null && classLabels.length != features.size(0)) {
            throw new IllegalArgumentException(classLabels.length + " class labels for " + features.size(0) + " examples");
        }
        if ((classLabels == null) != (numClasses == 0)) {
            throw new IllegalArgumentException("give class labels and a class count together (classification), or neither (regression)");
        }
    }

    /** The number of examples. */
    public long size() {
        return features.size(0);
    }

    /** Whether the examples have classes. */
    public boolean isClassification() {
        return classLabels != null;
    }

    /**
     * The parties' data under a split: each party's rows of this set, in the split's order.
     *
     * @throws IllegalArgumentException when the split is impossible (more parties than examples, an empty party)
     */
    public Parties split(PartySplit how, int parties, long seed) {
        PartySplit.Parties parts = assign(how, parties, seed);
        List<NodeData> data = new ArrayList<>(parties);
        for (int[] rows : parts.indices()) {
            data.add(new NodeData(Nd4j.pullRows(features, 1, rows), Nd4j.pullRows(labels(), 1, rows)));
        }
        return new Parties(data, parts.report());
    }

    /**
     * The number of examples each party gets under a split, as {@link #split} would give them, without copying any
     * example (a split that follows the labels reads them).
     *
     * @throws IllegalArgumentException when the split is impossible, as {@link #split} throws it
     */
    public long[] partySizes(PartySplit how, int parties, long seed) {
        return java.util.Arrays.stream(assign(how, parties, seed).indices()).mapToLong(rows -> rows.length).toArray();
    }

    private PartySplit.Parties assign(PartySplit how, int parties, long seed) {
        int[] labels = isClassification() ? classLabels : new int[(int) size()];
        PartySplit.Parties parts = how.assign(labels, Math.max(1, numClasses), parties, seed);
        if (parts.indices().length != parties) {
            throw new IllegalStateException("the split made " + parts.indices().length + " parts for " + parties + " parties");
        }
        return parts;
    }

    /**
     * The data of each party after a split.
     *
     * @param data   each party's examples
     * @param report how the examples were split, for the run directory
     */
    public record Parties(List<NodeData> data, String report) {
        public Parties {
            data = List.copyOf(data);
            Objects.requireNonNull(report, "report");
        }
    }
}
