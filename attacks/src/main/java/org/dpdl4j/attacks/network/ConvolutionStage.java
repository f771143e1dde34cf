package org.dpdl4j.attacks.network;

import java.util.Arrays;
import java.util.Objects;
import org.dpdl4j.nn.ConvolutionGeometry;
import org.dpdl4j.nn.PoolingGeometry;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A 2-D convolution stage in NCHW layout, {@code h = pool(f(conv(x, W) + b))}: the convolution, its activation, and
 * the pooling layer that follows it directly in the network, if any (pooling has no parameters, so it belongs to the
 * stage before it).
 *
 * @param layerIndex index of the layer in the DL4J network
 * @param weights    {@code [outChannels, inChannels, kernelHeight, kernelWidth]}
 * @param bias       {@code 1 x outChannels}, or {@code null}
 * @param activation activation after the convolution
 * @param geometry   sizes, strides, dilation and padding
 * @param pooling    the pooling after the activation, or {@code null}
 */
public record ConvolutionStage(int layerIndex, INDArray weights, INDArray bias, StageActivation activation,
                               ConvolutionGeometry geometry, PoolingGeometry pooling) implements Stage {

    /** A convolution stage without pooling. */
    public ConvolutionStage(int layerIndex, INDArray weights, INDArray bias, StageActivation activation,
                            ConvolutionGeometry geometry) {
        this(layerIndex, weights, bias, activation, geometry, null);
    }

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
        if (pooling != null && (pooling.channels() != geometry.outChannels() || pooling.inHeight() != geometry.outHeight()
                || pooling.inWidth() != geometry.outWidth())) {
            throw new IllegalArgumentException("convolution stage of layer " + layerIndex + ": its pooling takes "
                    + pooling.channels() + "x" + pooling.inHeight() + "x" + pooling.inWidth() + " images but the"
                    + " convolution gives " + geometry.outChannels() + "x" + geometry.outHeight() + "x" + geometry.outWidth());
        }
    }

    /** The same stage with the given pooling after its activation. */
    public ConvolutionStage withPooling(PoolingGeometry newPooling) {
        return new ConvolutionStage(layerIndex, weights, bias, activation, geometry, newPooling);
    }

    /** Whether a pooling layer follows the activation. */
    public boolean isPooled() {
        return pooling != null;
    }

    @Override
    public long inputSize() {
        return geometry.inputSize();
    }

    @Override
    public long outputSize() {
        return pooling != null ? pooling.outputSize() : geometry.outputSize();
    }
}
