package org.dpdl4j.models;

import java.util.Objects;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.distribution.UniformDistribution;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInitDistribution;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/**
 * The small sigmoid convolutional network attacked by Deep Leakage from Gradients (DLG): three 5x5
 * convolutions with 12 channels and padding 2 (strides 2, 2, 1), each followed by a sigmoid, then a
 * softmax output layer on the flattened features with multi-class cross-entropy. Sigmoid keeps the
 * network twice differentiable, which gradient matching needs.
 *
 * <p>MNIST 1x28x28: 28 -> 14 -> 7 -> 7, so 12*7*7 = 588 features; CIFAR 3x32x32: 32 -> 16 -> 8 -> 8, 768
 * features. Weights and biases start from {@code U(-0.5, 0.5)}: {@link #network} does that with
 * {@link UniformParameters}; a network built from {@link #configuration} alone has DL4J's zero biases.
 */
public final class DlgLeNetModel {
    private static final String MODEL = "DLG LeNet";

    /** Channels of every convolution. */
    public static final int CHANNELS = 12;
    /** Kernel height and width of every convolution. */
    public static final int KERNEL = 5;
    /** Zero padding on each side of every convolution. */
    public static final int PADDING = 2;
    /** Strides of the three convolutions. */
    private static final int[] STRIDES = {2, 2, 1};
    /** Parameters start from {@code U(-INIT_BOUND, INIT_BOUND)}. */
    public static final double INIT_BOUND = 0.5;

    /** How examples reach the network. */
    public enum InputFormat {
        /** Rows of {@code c*h*w} values in channels-first order (what the data loaders produce). */
        FLAT,
        /** Four-dimensional arrays {@code [batch, channels, height, width]}. */
        IMAGE
    }

    private DlgLeNetModel() {
    }

    /**
     * @param shape    image shape, e.g. {@link ImageShape#MNIST}
     * @param nClasses number of classes, at least 2
     * @param input    flat rows or NCHW images
     * @param options  updater, seed, weight decay, data type; the weight init of the options is replaced
     *                 by {@code U(-0.5, 0.5)}
     */
    public static MultiLayerConfiguration configuration(ImageShape shape, int nClasses, InputFormat input,
                                                        ModelOptions options) {
        Objects.requireNonNull(shape, "DLG LeNet: shape must not be null; use e.g. ImageShape.MNIST");
        Objects.requireNonNull(input, "DLG LeNet: input format must not be null; use InputFormat.FLAT or IMAGE");
        Objects.requireNonNull(options, "DLG LeNet: options must not be null; use ModelOptions.defaults()");
        Arguments.positive(MODEL, "nClasses", nClasses);
        if (nClasses < 2) {
            throw new IllegalArgumentException("DLG LeNet: nClasses must be at least 2 (softmax output), got "
                    + nClasses);
        }
        ModelOptions uniform = options.withWeightInit(
                new WeightInitDistribution(new UniformDistribution(-INIT_BOUND, INIT_BOUND)));
        var layers = NetworkConfigurations.layers(uniform);
        for (int stride : STRIDES) {
            layers.layer(new ConvolutionLayer.Builder(KERNEL, KERNEL)
                    .stride(stride, stride)
                    .padding(PADDING, PADDING)
                    .convolutionMode(ConvolutionMode.Truncate)
                    .nOut(CHANNELS)
                    .activation(Activation.SIGMOID)
                    .build());
        }
        layers.layer(new OutputLayer.Builder(LossFunction.MCXENT)
                .nOut(nClasses)
                .activation(Activation.SOFTMAX)
                .build());
        layers.setInputType(input == InputFormat.FLAT
                ? InputType.convolutionalFlat(shape.height(), shape.width(), shape.channels())
                : InputType.convolutional(shape.height(), shape.width(), shape.channels()));
        return NetworkConfigurations.build(layers, options);
    }

    /**
     * An initialised network whose weights and biases are all drawn from {@code U(-0.5, 0.5)} with the
     * seed of the options, as in the DLG reference.
     */
    public static MultiLayerNetwork network(ImageShape shape, int nClasses, InputFormat input, ModelOptions options) {
        MultiLayerNetwork net = new MultiLayerNetwork(configuration(shape, nClasses, input, options));
        net.init();
        UniformParameters.fill(net, options.seed(), -INIT_BOUND, INIT_BOUND);
        return net;
    }

    /** Number of features entering the output layer: {@code 12 * h' * w'} after the three convolutions. */
    public static int flattenedSize(ImageShape shape) {
        Objects.requireNonNull(shape, "shape must not be null");
        int height = shape.height();
        int width = shape.width();
        for (int stride : STRIDES) {
            height = convolvedSize(height, stride);
            width = convolvedSize(width, stride);
        }
        return CHANNELS * height * width;
    }

    /** DL4J's truncating convolution arithmetic: {@code floor((n + 2p - k) / s) + 1}. */
    private static int convolvedSize(int size, int stride) {
        return (size + 2 * PADDING - KERNEL) / stride + 1;
    }
}
