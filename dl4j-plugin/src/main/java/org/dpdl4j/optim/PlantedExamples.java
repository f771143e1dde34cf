package org.dpdl4j.optim;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Examples whose clipped gradients a private step adds to its clipped sum besides the training data's: planted audit
 * canaries ({@code org.dpdl4j.audit}). A {@link PrivateTrainer} samples them with the data, as if they were rows
 * appended to the training set (its sampler, the expected batch size and the accountant all see the training examples
 * plus {@link #count()}), so that each is treated exactly as a training example would be.
 */
public interface PlantedExamples {

    /** How many planted examples take part in the run (all of them are sampled like training examples). */
    int count();

    /**
     * Adds the clipped gradients of the planted examples sampled in this step to the step's clipped sum, before the
     * noise. A correct mechanism adds gradients of norm at most the clip C.
     *
     * @param sampled    indices in {@code [0, count())}, each at most once
     * @param clippedSum the step's sum of clipped per-example gradients, the network's gradient view ([1, p])
     */
    void addClippedGradients(int[] sampled, INDArray clippedSum);
}
