/**
 * The one reader of DL4J network structure in dpdl4j: {@link org.dpdl4j.nn.ModelReader} turns a
 * {@code MultiLayerConfiguration} into a neutral {@link org.dpdl4j.nn.ModelDescription} (per layer: kind, sizes
 * or convolution geometry, activation, bias, loss, preprocessor and example shape, offset and count in DL4J's
 * flattened parameter vector, views of that vector) together with every {@link org.dpdl4j.nn.ModelProblem} it
 * found, and {@link org.dpdl4j.nn.UnsupportedModelException} is the one exception for refused networks.
 *
 * <p>What lives elsewhere: the rules of each computation that uses a description. Per-example clipping
 * ({@code org.dpdl4j.optim.DpModelValidator}) accepts dense stacks only and builds its own
 * {@code DenseNetworkSpec}; gradient matching ({@code org.dpdl4j.attacks.network.TargetNetwork}) accepts only the
 * activations and output heads it can differentiate twice and copies the parameters into its stages. The
 * arithmetic on parameters and gradients (ghost norms, clipping, matching) stays with those computations; here
 * there is only shape arithmetic ({@link org.dpdl4j.nn.ConvolutionGeometry}: output sizes, padding, which input
 * pixel each kernel tap reads).
 *
 * <p>The reader describes deterministic feed-forward stacks fed flat input rows: {@code DenseLayer}s, 2-D
 * {@code ConvolutionLayer}s in NCHW behind the preprocessors of {@code InputType.convolutionalFlat}, and a final
 * {@code OutputLayer}. Computation graphs, recurrent layers and 4-D image input are outside it.
 */
package org.dpdl4j.nn;
