package org.dpdl4j.runtime;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The batches of all nodes for one round in one tensor: features [n, b, nIn], labels [n, b, k], and,
 * when batch sizes differ (Poisson sampling), zero padding with a mask [n, b] that marks real examples.
 * Built by {@link NodeBatches}.
 *
 * @param features stacked features
 * @param labels   stacked labels
 * @param mask     null when every node has exactly b examples, else 1 for real examples, 0 for padding
 * @param sizes    the real batch size of each node
 * @param featureSquaredNorms ||x||^2 of every example, [n, b] (0 for padding), or null when not gathered
 */
public record PaddedBatch(INDArray features, INDArray labels, INDArray mask, int[] sizes, INDArray featureSquaredNorms) {

    /** A batch without precomputed feature norms (the clipping computes them). */
    public PaddedBatch(INDArray features, INDArray labels, INDArray mask, int[] sizes) {
        this(features, labels, mask, sizes, null);
    }
}
