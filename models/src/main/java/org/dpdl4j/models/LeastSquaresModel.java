package org.dpdl4j.models;

import java.util.Objects;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.nd4j.linalg.activations.Activation;

/**
 * Linear least squares: one output layer {@code nIn -> nOut}, identity activation, optional bias, loss
 * {@code 1/2 * sum_outputs (yhat - y)^2} per example ({@link LossHalfSquaredError}). With one-hot targets
 * and {@code nOut} classes this is the linear model of the distributed Lasso experiments.
 */
public final class LeastSquaresModel {
    private static final String MODEL = "least squares";

    private LeastSquaresModel() {
    }

    /**
     * @param nIn     number of input features
     * @param nOut    number of regression targets
     * @param hasBias whether the model has an intercept per output
     */
    public static MultiLayerConfiguration configuration(int nIn, int nOut, boolean hasBias, ModelOptions options) {
        Objects.requireNonNull(options, "least squares: options must not be null; use ModelOptions.defaults()");
        Arguments.positive(MODEL, "nIn", nIn);
        Arguments.positive(MODEL, "nOut", nOut);
        var layers = NetworkConfigurations.layers(options)
                .layer(new OutputLayer.Builder(new LossHalfSquaredError())
                        .nIn(nIn).nOut(nOut)
                        .activation(Activation.IDENTITY)
                        .hasBias(hasBias)
                        .build());
        return NetworkConfigurations.build(layers, options);
    }
}
