package org.dpdl4j.models;

import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

import java.util.Objects;

/**
 * The end-to-end CNN of private image classification (Papernot et al., "Tempered sigmoid activations"; Tramèr &amp;
 * Boneh, "Differentially private learning needs better features"): conv 16 filters 8x8 stride 2 (same padding),
 * max-pool 2x2 stride 1, conv 32 filters 4x4 stride 2 (no padding), max-pool 2x2 stride 1, dense 32, softmax output,
 * every hidden activation tanh. On 28x28 MNIST images it has 26,010 parameters. Inputs are flat rows of pixels,
 * reshaped to images by the preprocessor DL4J adds for {@code InputType.convolutionalFlat}.
 */
public final class PrivateCnnModel {
    private static final String MODEL = "CNN";

    private PrivateCnnModel() {
    }

    /**
     * @param shape      image shape of the flat input rows
     * @param nOut       number of classes
     * @param activation activation of every hidden layer (tanh in the papers)
     * @param options    updater, seed, weight decay, data type, weight init
     */
    public static MultiLayerConfiguration configuration(ImageShape shape, int nOut, Activation activation, ModelOptions options) {
        Objects.requireNonNull(shape, "CNN: image shape must not be null");
        Objects.requireNonNull(activation, "CNN: activation must not be null; use e.g. Activation.TANH");
        Objects.requireNonNull(options, "CNN: options must not be null; use ModelOptions.defaults()");
        Arguments.positive(MODEL, "nOut", nOut);
        if (shape.height() < 16 || shape.width() < 16) {
            throw new IllegalArgumentException("CNN: images of " + shape + " are too small for its two strided"
                    + " convolutions and poolings; it needs at least 16x16 (MNIST's are 28x28)");
        }
        NeuralNetConfiguration.ListBuilder layers = NetworkConfigurations.layers(options)
                .layer(new ConvolutionLayer.Builder(8, 8).nOut(16).stride(2, 2).convolutionMode(ConvolutionMode.Same)
                        .activation(activation).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(1, 1).build())
                .layer(new ConvolutionLayer.Builder(4, 4).nOut(32).stride(2, 2).convolutionMode(ConvolutionMode.Truncate)
                        .activation(activation).build())
                .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2).stride(1, 1).build())
                .layer(new DenseLayer.Builder().nOut(32).activation(activation).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nOut(nOut).activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(shape.height(), shape.width(), shape.channels()));
        return NetworkConfigurations.build(layers, options);
    }
}
