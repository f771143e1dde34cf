package org.dpdl4j.attacks.network;

import java.util.Arrays;
import java.util.Objects;
import org.dpdl4j.nn.ConvolutionGeometry;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A 2-D convolution stage in NCHW layout, {@code h = f(conv(x, W) + b)}.
 *
 * @param layerIndex index of the layer in the DL4J network
 * @param weights    {@code [outChannels, inChannels, kernelHeight, kernelWidth]}
 * @param bias       {@code 1 x outChannels}, or {@code null}
 * @param activation activation after the convolution
 * @param geometry   sizes, strides, dilation and padding
 */
public record ConvolutionStage(int layerIndex, INDArray weights, INDArray bias, StageActivation activation,
                               ConvolutionGeometry geometry) implements Stage {

    public ConvolutionStage {
        Objects.requireNonNull(weights, "convolution stage: weights must not be null");
        Objects.requireNonNull(activation, "convolution stage: activation must not be null");
        Objects.requireNonNull(geometry, "convolution stage: geometry must not be null");
        long[] expected = {geometry.outChannels(), geometry.inChannels(), geometry.kernelHeight(),
                geometry.kernelWidth()};
        if (!Arrays.equals(weights.shape(), expected)) {
            throw new IllegalArgumentException("convolution stage of layer " + layerIndex + ": weights must have shape "
                    + Arrays.toString(expected) + ", got " + Arrays.toString(weights.shape()));
        }
        if (bias != null && (bias.rank() != 2 || bias.size(0) != 1 || bias.size(1) != geometry.outChannels())) {
            throw new IllegalArgumentException("convolution stage of layer " + layerIndex + ": bias must be 1 x "
                    + geometry.outChannels() + ", got shape " + Arrays.toString(bias.shape()));
        }
    }

    @Override
    public long inputSize() {
        return geometry.inputSize();
    }

    @Override
    public long outputSize() {
        return geometry.outputSize();
    }
}
