package org.dpdl4j.attacks.network;

import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A fully connected stage {@code h = f(x W + b)}.
 *
 * @param layerIndex index of the layer in the DL4J network
 * @param weights    {@code nIn x nOut}
 * @param bias       {@code 1 x nOut}, or {@code null}
 * @param activation activation after the affine map
 */
public record DenseStage(int layerIndex, INDArray weights, INDArray bias, StageActivation activation) implements Stage {

    public DenseStage {
        Objects.requireNonNull(weights, "dense stage: weights must not be null");
        Objects.requireNonNull(activation, "dense stage: activation must not be null");
        if (weights.rank() != 2) {
            throw new IllegalArgumentException("dense stage of layer " + layerIndex + ": weights must be nIn x nOut,"
                    + " got shape " + java.util.Arrays.toString(weights.shape()));
        }
        if (bias != null && (bias.rank() != 2 || bias.size(0) != 1 || bias.size(1) != weights.size(1))) {
            throw new IllegalArgumentException("dense stage of layer " + layerIndex + ": bias must be 1 x "
                    + weights.size(1) + ", got shape " + java.util.Arrays.toString(bias.shape()));
        }
    }

    @Override
    public long inputSize() {
        return weights.size(0);
    }

    @Override
    public long outputSize() {
        return weights.size(1);
    }
}
