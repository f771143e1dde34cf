/**
 * The attacked network as gradient matching sees it. {@link TargetNetwork} is a frozen copy of a DL4J
 * {@code MultiLayerNetwork}: a list of {@link Stage}s ({@link DenseStage}, {@link ConvolutionStage}), each followed
 * by a {@link StageActivation} with the first and second derivatives matching needs, and an {@link OutputHead}
 * (softmax or sigmoid cross-entropy); it splits flat parameter-space vectors into per-stage {@link LayerGradient}s
 * and back. {@link NetworkGradients} computes DL4J's own gradient, the reference the attacks are checked against.
 *
 * <p>Reading the DL4J configuration is not done here but by {@code org.dpdl4j.nn.ModelReader} in the core library;
 * {@link TargetNetwork} refuses its problems plus the activations and heads it cannot differentiate twice. The
 * matching loss built on these stages lives in {@code org.dpdl4j.attacks.matching}.
 */
package org.dpdl4j.attacks.network;
