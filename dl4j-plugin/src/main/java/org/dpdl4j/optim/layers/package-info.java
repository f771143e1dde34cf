/**
 * Per-example clipping layer by layer, for convolutional networks, embeddings and computation graphs.
 *
 * <p>{@link org.dpdl4j.optim.layers.ExampleLayerRegistry} maps each DL4J layer configuration class to an
 * {@link org.dpdl4j.optim.layers.ExampleLayer}: its batched forward and backward passes, its share of every
 * example's squared gradient norm and its part of the clipped gradient sum. {@link
 * org.dpdl4j.optim.layers.LayeredGradients} runs them over a {@code MultiLayerNetwork} or a {@code ComputationGraph}
 * in one batched pass per step. A new layer type is one {@code ExampleLayer} registered with
 * {@code ExampleLayerRegistry.with(...)}, checked against {@link org.dpdl4j.optim.PerExampleGradientOracle}.
 */
package org.dpdl4j.optim.layers;
