package org.dpdl4j.models;

import org.nd4j.linalg.activations.Activation;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;

/**
 * The models the command line offers, by name. Each builds a configuration from the number of inputs, the
 * number of classes or outputs and the options; inputs are always flat rows of features (the DLG network
 * reshapes them to images).
 */
public enum ModelKind {
    /** Fully connected network, {@link MlpModel}. */
    MLP("mlp") {
        @Override
        public MultiLayerConfiguration configuration(int nIn, int nOut, ModelOptions options, Architecture architecture) {
            return MlpModel.configuration(nIn, architecture.hiddenLayerSizes(), nOut,
                    architecture.hiddenActivation(), options);
        }
    },
    /** Binary logistic regression, {@link LogisticRegressionModel}; {@code nOut} must be 1. */
    LOGISTIC("logistic") {
        @Override
        public MultiLayerConfiguration configuration(int nIn, int nOut, ModelOptions options, Architecture architecture) {
            return LogisticRegressionModel.configuration(nIn, nOut, options);
        }
    },
    /** Softmax regression, {@link SoftmaxRegressionModel}. */
    SOFTMAX("softmax") {
        @Override
        public MultiLayerConfiguration configuration(int nIn, int nOut, ModelOptions options, Architecture architecture) {
            return SoftmaxRegressionModel.configuration(nIn, nOut, options);
        }
    },
    /** Linear least squares, {@link LeastSquaresModel}. */
    LEAST_SQUARES("least-squares") {
        @Override
        public MultiLayerConfiguration configuration(int nIn, int nOut, ModelOptions options, Architecture architecture) {
            return LeastSquaresModel.configuration(nIn, nOut, architecture.leastSquaresBias(), options);
        }
    },
    /** The end-to-end tanh CNN of private image classification, {@link PrivateCnnModel}, fed flat rows of pixels. */
    CNN("cnn") {
        @Override
        public MultiLayerConfiguration configuration(int nIn, int nOut, ModelOptions options, Architecture architecture) {
            return PrivateCnnModel.configuration(imageShapeOf(nIn, architecture, cliName()), nOut, Activation.TANH, options);
        }
    },
    /** The sigmoid network attacked by DLG, {@link DlgLeNetModel}, fed flat rows. */
    DLG_LENET("dlg-lenet") {
        @Override
        public MultiLayerConfiguration configuration(int nIn, int nOut, ModelOptions options, Architecture architecture) {
            return DlgLeNetModel.configuration(imageShapeOf(nIn, architecture, cliName()), nOut,
                    DlgLeNetModel.InputFormat.FLAT, options);
        }

        @Override
        public MultiLayerNetwork network(int nIn, int nOut, ModelOptions options, Architecture architecture) {
            return DlgLeNetModel.network(imageShapeOf(nIn, architecture, cliName()), nOut, DlgLeNetModel.InputFormat.FLAT,
                    options);
        }
    };

    /** The image shape of flat rows of {@code nIn} pixels: the architecture's, or a square 1- or 3-channel one. */
    private static ImageShape imageShapeOf(int nIn, Architecture architecture, String model) {
        ImageShape shape = architecture.imageShape();
        if (shape == null) {
            return ImageShape.squareFromFlatSize(nIn);
        }
        if (shape.flatSize() != nIn) {
            throw new IllegalArgumentException(model + ": image shape " + shape + " has " + shape.flatSize()
                    + " values but the data has nIn = " + nIn + " features; give the shape of the data's images");
        }
        return shape;
    }

    private final String cliName;

    ModelKind(String cliName) {
        this.cliName = cliName;
    }

    /** The name used on the command line, e.g. {@code least-squares}. */
    public String cliName() {
        return cliName;
    }

    /**
     * The configuration of this model.
     *
     * @param nIn          number of input features (flat)
     * @param nOut         number of classes (1 for logistic, or for a binary MLP) or regression targets
     * @param options      updater, seed, weight decay, data type, weight init
     * @param architecture model-specific choices; only the fields of this kind are read
     */
    public abstract MultiLayerConfiguration configuration(int nIn, int nOut, ModelOptions options,
                                                          Architecture architecture);

    /** {@link #configuration(int, int, ModelOptions, Architecture)} with {@link Architecture#defaults()}. */
    public MultiLayerConfiguration configuration(int nIn, int nOut, ModelOptions options) {
        return configuration(nIn, nOut, options, Architecture.defaults());
    }

    /**
     * An initialised network of this model: DL4J's initialisation with the seed of the options, except the
     * DLG network, whose weights and biases are all drawn from {@code U(-0.5, 0.5)}.
     */
    public MultiLayerNetwork network(int nIn, int nOut, ModelOptions options, Architecture architecture) {
        MultiLayerNetwork net = new MultiLayerNetwork(configuration(nIn, nOut, options, architecture));
        net.init();
        return net;
    }

    /** {@link #network(int, int, ModelOptions, Architecture)} with {@link Architecture#defaults()}. */
    public MultiLayerNetwork network(int nIn, int nOut, ModelOptions options) {
        return network(nIn, nOut, options, Architecture.defaults());
    }

    /**
     * The kind with this command-line name (case-insensitive; underscores accepted for dashes).
     *
     * @throws IllegalArgumentException naming the accepted names
     */
    public static ModelKind fromCliName(String name) {
        Objects.requireNonNull(name, "model name must not be null");
        String normalised = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (ModelKind kind : values()) {
            if (kind.cliName.equals(normalised)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown model '" + name + "'; choose one of " + Arrays.stream(values())
                .map(ModelKind::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return cliName;
    }
}
