package org.dpdl4j.models;

import java.util.Objects;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/**
 * Binary logistic regression: one output layer {@code nIn -> 1} with bias, sigmoid, binary cross-entropy
 * (XENT). Labels are one column in {0, 1}. a9a (123 features) gives 124 parameters.
 */
public final class LogisticRegressionModel {
    private static final String MODEL = "logistic regression";

    private LogisticRegressionModel() {
    }

    /** @param nIn number of input features */
    public static MultiLayerConfiguration configuration(int nIn, ModelOptions options) {
        return configuration(nIn, 1, options);
    }

    /**
     * Same as {@link #configuration(int, ModelOptions)}, for callers that pass an output count: it must be 1.
     */
    public static MultiLayerConfiguration configuration(int nIn, int nOut, ModelOptions options) {
        Objects.requireNonNull(options, "logistic regression: options must not be null; use ModelOptions.defaults()");
        Arguments.positive(MODEL, "nIn", nIn);
        if (nOut != 1) {
            throw new IllegalArgumentException("logistic regression: nOut must be 1 (the probability of class 1, "
                    + "labels in {0, 1}), got " + nOut + "; for two classes pass nOut = 1, for k > 2 classes "
                    + "use the softmax model");
        }
        var layers = NetworkConfigurations.layers(options)
                .layer(new OutputLayer.Builder(LossFunction.XENT)
                        .nIn(nIn).nOut(1)
                        .activation(Activation.SIGMOID)
                        .hasBias(true)
                        .build());
        return NetworkConfigurations.build(layers, options);
    }
}
