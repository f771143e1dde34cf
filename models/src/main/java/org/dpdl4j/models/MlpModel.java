package org.dpdl4j.models;

import java.util.List;
import java.util.Objects;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/**
 * Fully connected network: dense hidden layers, then a softmax output trained with multi-class cross-entropy
 * (MCXENT), or a single sigmoid unit trained with binary cross-entropy (XENT) when {@code nOut == 1}.
 * The papers use 784-128-10 with ReLU (101,770 parameters).
 */
public final class MlpModel {
    private static final String MODEL = "MLP";

    /** Hidden layer sizes of the MNIST MLP used in the papers. */
    public static final List<Integer> PAPER_HIDDEN_LAYERS = List.of(128);

    private MlpModel() {
    }

    /**
     * @param nIn              number of input features
     * @param hiddenLayerSizes sizes of the hidden layers, input side first (at least one)
     * @param nOut             number of classes, or 1 for a binary sigmoid output
     * @param hiddenActivation activation of every hidden layer, e.g. {@link Activation#RELU}
     * @param options          updater, seed, weight decay, data type, weight init
     */
    public static MultiLayerConfiguration configuration(int nIn, List<Integer> hiddenLayerSizes, int nOut,
                                                        Activation hiddenActivation, ModelOptions options) {
        Objects.requireNonNull(hiddenLayerSizes, "MLP: hiddenLayerSizes must not be null");
        Objects.requireNonNull(hiddenActivation, "MLP: hiddenActivation must not be null; use e.g. Activation.RELU");
        Objects.requireNonNull(options, "MLP: options must not be null; use ModelOptions.defaults()");
        Arguments.positive(MODEL, "nIn", nIn);
        Arguments.positive(MODEL, "nOut", nOut);
        if (hiddenLayerSizes.isEmpty()) {
            throw new IllegalArgumentException("MLP: hiddenLayerSizes is empty; give at least one hidden layer "
                    + "(e.g. [128]), or use SoftmaxRegressionModel / LogisticRegressionModel for a model "
                    + "without hidden layers");
        }
        NeuralNetConfiguration.ListBuilder layers = NetworkConfigurations.layers(options);
        int previous = nIn;
        for (int i = 0; i < hiddenLayerSizes.size(); i++) {
            Integer size = hiddenLayerSizes.get(i);
            if (size == null) {
                throw new IllegalArgumentException("MLP: hiddenLayerSizes[" + i + "] is null; give a positive size");
            }
            Arguments.positive(MODEL, "hiddenLayerSizes[" + i + "]", size);
            layers.layer(new DenseLayer.Builder().nIn(previous).nOut(size).activation(hiddenActivation).build());
            previous = size;
        }
        boolean binary = nOut == 1;
        layers.layer(new OutputLayer.Builder(binary ? LossFunction.XENT : LossFunction.MCXENT)
                .nIn(previous).nOut(nOut)
                .activation(binary ? Activation.SIGMOID : Activation.SOFTMAX)
                .build());
        return NetworkConfigurations.build(layers, options);
    }

    /** The papers' MNIST MLP shape: {@code nIn}-128-{@code nOut} with ReLU. */
    public static MultiLayerConfiguration paperConfiguration(int nIn, int nOut, ModelOptions options) {
        return configuration(nIn, PAPER_HIDDEN_LAYERS, nOut, Activation.RELU, options);
    }
}
