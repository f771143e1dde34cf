package org.dpdl4j.optim;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The few linear-algebra steps of a dense layer, over either one model (rank-2 activations
 * {@code [b, k]}) or n stacked models (rank-3 activations {@code [n, b, k]}, parameters as rows of an
 * {@code [n, p]} matrix). Parameters and gradients are always addressed in DL4J's flattened layout, so
 * each row of the stacked matrix can back a DL4J network.
 */
interface LayerAlgebra {
    /** Weights of a layer as an array that multiplies activations from the right ([nIn, nOut] per model). */
    INDArray weights(INDArray params, DenseLayerSpec layer);

    /** Pre-activations {@code z = a W + b}. */
    INDArray linear(INDArray input, INDArray weights, INDArray params, DenseLayerSpec layer);

    /** Gradient with respect to the layer input: {@code delta W^T}. */
    INDArray backToInput(INDArray delta, INDArray weights);

    /** Writes {@code a^T delta} (and the column sums of delta, for the bias) into the layer's gradient slots. */
    void writeGradients(INDArray input, INDArray delta, INDArray gradOut, DenseLayerSpec layer);

    /** Views activations as a matrix with one row per example (for activation functions and losses). */
    INDArray rows(INDArray activations);

    /** Inverse of {@link #rows}: back to the leading (model, example) shape of {@code shapeSource}. */
    INDArray unrows(INDArray rows, INDArray shapeSource);

    /** Per-example squared L2 norms: shape [b] (one model) or [n, b] (stacked). */
    INDArray squaredRowNorms(INDArray activations);

    /** Multiplies each example's row by its factor ([b] or [n, b]), in place. */
    void scaleRows(INDArray activations, INDArray factors);
}
