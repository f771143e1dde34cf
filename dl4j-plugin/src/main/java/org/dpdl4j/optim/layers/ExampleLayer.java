package org.dpdl4j.optim.layers;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One layer of a network as the per-example clipping engine ({@link LayeredGradients}) runs it: a training-mode
 * forward pass over a batch, the backward pass, and - for a layer with parameters - each example's squared
 * gradient norm and the sum of the examples' gradients scaled by their clipping factors.
 *
 * <p>An implementation keeps what its backward pass and its norms need (its input, its output-side error) between
 * the calls of one step; {@link #clear()} drops it. It must never loop over the examples of a batch: the point of
 * the engine is one batched pass per step. Every example's gradient must depend on that example alone; layers that
 * mix the examples of a batch (batch normalization) cannot be clipped per example and are refused by the
 * {@link ExampleLayerRegistry}.
 *
 * <p>A new layer type is one implementation of this interface registered with
 * {@link ExampleLayerRegistry#with(Class, ExampleLayerRegistry.Factory)}, plus an oracle test against
 * {@link org.dpdl4j.optim.PerExampleGradientOracle}.
 */
public interface ExampleLayer {
    /** Binds the network's flattened parameter vector that the next pass computes with (layers with parameters). */
    default void bind(INDArray flatParameters) {
    }

    /** The layer's training-mode output for a batch (examples along dimension 0). */
    INDArray forward(INDArray input);

    /**
     * Back-propagates the gradient of the summed loss with respect to this layer's output.
     *
     * @param epsilon        dLoss/dOutput, shaped like the output of {@link #forward}
     * @param inputGradient  whether the caller needs dLoss/dInput (false for the first layer of a network)
     * @return dLoss/dInput, or {@code null} when not asked for
     */
    INDArray backward(INDArray epsilon, boolean inputGradient);

    /** Whether the layer has trainable parameters (then the two methods below do something). */
    default boolean hasParameters() {
        return false;
    }

    /** Adds each example's squared gradient norm over this layer's parameters to {@code squaredNorms} ([b]). */
    default void addSquaredNorms(INDArray squaredNorms) {
    }

    /**
     * Writes the sum over examples of {@code factor_i * g_i} (this layer's part of each example's gradient) into
     * this layer's slots of {@code gradient}, a vector laid out like the network's flattened parameters.
     *
     * @param factors per-example clipping factors ([b]), or {@code null} for the plain sum
     */
    default void writeClippedGradient(INDArray factors, INDArray gradient) {
    }

    /** Drops what the last step kept. */
    default void clear() {
    }
}
