package org.dpdl4j.models;

import java.util.List;
import java.util.Objects;
import org.nd4j.linalg.activations.Activation;

/**
 * The model-specific choices {@link ModelKind} needs beyond input and output sizes. Each kind reads only
 * its own fields: the MLP its hidden layers and activation, least squares its bias flag, the DLG network
 * its image shape.
 *
 * @param hiddenLayerSizes MLP hidden layer sizes, input side first
 * @param hiddenActivation MLP hidden activation
 * @param leastSquaresBias whether the least-squares model has an intercept
 * @param imageShape       image shape of the DLG network, or {@code null} to infer a square 1- or 3-channel
 *                         image from the number of inputs ({@link ImageShape#squareFromFlatSize})
 */
public record Architecture(List<Integer> hiddenLayerSizes, Activation hiddenActivation, boolean leastSquaresBias,
                           ImageShape imageShape) {

    public Architecture {
        Objects.requireNonNull(hiddenLayerSizes, "hiddenLayerSizes must not be null (it may be empty when no MLP is built)");
        Objects.requireNonNull(hiddenActivation, "hiddenActivation must not be null; use e.g. Activation.RELU");
        hiddenLayerSizes = List.copyOf(hiddenLayerSizes);
    }

    /** The papers' choices: one hidden layer of 128 ReLU units, least squares with bias, inferred image shape. */
    public static Architecture defaults() {
        return new Architecture(MlpModel.PAPER_HIDDEN_LAYERS, Activation.RELU, true, null);
    }

    public Architecture withHiddenLayers(List<Integer> sizes, Activation activation) {
        return new Architecture(sizes, activation, leastSquaresBias, imageShape);
    }

    public Architecture withLeastSquaresBias(boolean bias) {
        return new Architecture(hiddenLayerSizes, hiddenActivation, bias, imageShape);
    }

    public Architecture withImageShape(ImageShape shape) {
        return new Architecture(hiddenLayerSizes, hiddenActivation, leastSquaresBias, shape);
    }
}
