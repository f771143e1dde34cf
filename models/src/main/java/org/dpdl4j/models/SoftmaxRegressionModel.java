package org.dpdl4j.models;

import java.util.Objects;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/**
 * Multinomial logistic (softmax) regression: one output layer {@code nIn -> k} with bias, softmax,
 * multi-class cross-entropy (MCXENT) on one-hot labels. MNIST (784 -> 10) gives 7,850 parameters.
 */
public final class SoftmaxRegressionModel {
    private static final String MODEL = "softmax regression";

    private SoftmaxRegressionModel() {
    }

    /**
     * @param nIn      number of input features
     * @param nClasses number of classes, at least 2
     */
    public static MultiLayerConfiguration configuration(int nIn, int nClasses, ModelOptions options) {
        Objects.requireNonNull(options, "softmax regression: options must not be null; use ModelOptions.defaults()");
        Arguments.positive(MODEL, "nIn", nIn);
        Arguments.positive(MODEL, "nClasses", nClasses);
        if (nClasses < 2) {
            throw new IllegalArgumentException("softmax regression: nClasses must be at least 2, got " + nClasses
                    + "; for a single {0, 1} output use the logistic model");
        }
        var layers = NetworkConfigurations.layers(options)
                .layer(new OutputLayer.Builder(LossFunction.MCXENT)
                        .nIn(nIn).nOut(nClasses)
                        .activation(Activation.SOFTMAX)
                        .hasBias(true)
                        .build());
        return NetworkConfigurations.build(layers, options);
    }
}
