package org.dpdl4j.optim;

import org.nd4j.linalg.activations.IActivation;

/**
 * One fully connected layer as the per-example gradient engine sees it, with the position of its
 * parameters in DL4J's flattened parameter vector: the weights W (nIn x nOut, stored column-major,
 * i.e. 'f' order) start at {@code weightOffset}, followed by the bias (nOut) when there is one.
 *
 * @param index        layer index in the network
 * @param nIn          inputs
 * @param nOut         outputs
 * @param activation   DL4J activation function applied to the pre-activation
 * @param hasBias      whether the layer has a bias vector
 * @param weightOffset offset of W in the flattened parameters
 */
public record DenseLayerSpec(int index, long nIn, long nOut, IActivation activation, boolean hasBias, long weightOffset) {
    /** Number of weights (nIn * nOut). */
    public long weightCount() {
        return nIn * nOut;
    }

    /** Offset of the bias in the flattened parameters (meaningful only if {@link #hasBias()}). */
    public long biasOffset() {
        return weightOffset + weightCount();
    }

    /** Number of parameters of this layer. */
    public long paramCount() {
        return weightCount() + (hasBias ? nOut : 0);
    }
}
