package org.dpdl4j.optim;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The examples of one DP-SGD step, ready for {@link DpOptimizer#step(INDArray, INDArray, INDArray)}.
 *
 * @param features            the batch in the shape the network takes (rows, or images)
 * @param labels              one label row per example
 * @param featureSquaredNorms ||x_i||^2 of each example, [b, 1]; null for an empty batch
 * @param size                b, the number of examples (0 is possible under Poisson sampling)
 */
record StepBatch(INDArray features, INDArray labels, INDArray featureSquaredNorms, int size) {
}
