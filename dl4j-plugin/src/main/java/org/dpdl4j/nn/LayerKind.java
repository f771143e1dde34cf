package org.dpdl4j.nn;

import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;

/** What a DL4J layer computes, as far as the model reader understands it. */
public enum LayerKind {
    /** {@link DenseLayer}: {@code f(x W + b)}. */
    DENSE,
    /** {@link ConvolutionLayer} in two dimensions: {@code f(conv(x, W) + b)}. */
    CONVOLUTION_2D,
    /** {@link OutputLayer}: a dense layer whose activation and loss give the network's output and loss. */
    OUTPUT,
    /** {@link SubsamplingLayer} in two dimensions: max or average pooling, no parameters. */
    SUBSAMPLING_2D,
    /** Any other layer; the reader reports it as a problem. */
    UNSUPPORTED;

    /**
     * The kind of a layer configuration. Classes match exactly: subclasses compute something else
     * ({@code Deconvolution2D}, {@code DepthwiseConvolution2D} and {@code Convolution1DLayer} are
     * {@code ConvolutionLayer}s).
     */
    public static LayerKind of(Layer layer) {
        Class<?> type = layer.getClass();
        if (type == DenseLayer.class) {
            return DENSE;
        }
        if (type == ConvolutionLayer.class) {
            return CONVOLUTION_2D;
        }
        if (type == OutputLayer.class) {
            return OUTPUT;
        }
        if (type == SubsamplingLayer.class) {
            return SUBSAMPLING_2D;
        }
        return UNSUPPORTED;
    }
}
