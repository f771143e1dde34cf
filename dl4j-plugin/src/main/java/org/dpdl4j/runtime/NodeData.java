package org.dpdl4j.runtime;

import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.Objects;

/**
 * The local training data of one node (user, machine, silo): features [m, nIn] and labels [m, k].
 *
 * @param features one row per example
 * @param labels   one row per example, in the layout the model's loss expects
 */
public record NodeData(INDArray features, INDArray labels) {
    public NodeData {
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(labels, "labels");
        if (features.rank() != 2 || labels.rank() != 2) {
            throw new IllegalArgumentException("node data must be matrices (one row per example); got features of rank "
                    + features.rank() + " and labels of rank " + labels.rank());
        }
        if (features.size(0) != labels.size(0)) {
            throw new IllegalArgumentException("node data has " + features.size(0) + " feature rows but " + labels.size(0)
                    + " label rows");
        }
        if (features.size(0) == 0) {
            throw new IllegalArgumentException("a node needs at least one example");
        }
    }

    /** Number of local examples. */
    public long size() {
        return features.size(0);
    }
}
