package org.dpdl4j.attacks.network;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One parameterised layer of the attacked network: an affine map followed by an element-wise activation.
 * The last stage of a {@link TargetNetwork} produces the logits (its activation is {@link StageActivation#IDENTITY})
 * and the network's {@link OutputHead} turns them into predictions.
 */
public sealed interface Stage permits DenseStage, ConvolutionStage {

    /** Index of the layer in the DL4J network. */
    int layerIndex();

    /** Weights, shaped as DL4J stores them ({@code nIn x nOut} dense, {@code [out, in, kh, kw]} convolution). */
    INDArray weights();

    /** Bias as a row vector {@code 1 x outChannels}, or {@code null} when the layer has none. */
    INDArray bias();

    /** Activation applied after the affine map. */
    StageActivation activation();

    /** Length of one flattened input example. */
    long inputSize();

    /** Length of one flattened output example. */
    long outputSize();

    /** Whether the stage has a bias. */
    default boolean hasBias() {
        return bias() != null;
    }
}
