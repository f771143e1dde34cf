package org.dpdl4j.optim.layers;

import org.nd4j.linalg.api.ndarray.INDArray;

/** The last layer of a network: it scores the examples against their labels and starts the backward pass. */
public interface ExampleLoss extends ExampleLayer {
    /**
     * Back-propagates from the labels: the gradient of the sum of the per-example losses.
     *
     * @param labels        one row (or example slice) per example, in the layout the loss expects
     * @param inputGradient whether dLoss/dInput is needed
     * @return dLoss/dInput, or {@code null} when not asked for
     */
    INDArray backwardFromLabels(INDArray labels, boolean inputGradient);

    /** Each example's loss ([b]) from the last {@link #backwardFromLabels} call. */
    INDArray exampleScores();

    @Override
    default INDArray backward(INDArray epsilon, boolean inputGradient) {
        throw new UnsupportedOperationException("a loss layer starts the backward pass from labels; call backwardFromLabels");
    }
}
