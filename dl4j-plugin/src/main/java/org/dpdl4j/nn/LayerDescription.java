package org.dpdl4j.nn;

import java.util.Map;
import java.util.Objects;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.lossfunctions.ILossFunction;

/**
 * One layer of a DL4J network as {@link ModelReader} reads it.
 *
 * @param index         index of the layer in the network
 * @param kind          what the layer computes
 * @param configuration DL4J's configuration of the layer (its parameter layout comes from here)
 * @param preprocessor  DL4J's input preprocessor of the layer, or {@code null}
 * @param input         one example as the layer receives it (after the preprocessor), or {@code null} where the
 *                      reader cannot tell (after a layer it does not understand)
 * @param output        one example as the layer produces it, or {@code null} where the reader cannot tell
 * @param nIn           inputs of a dense or output layer, input channels of a convolution; 0 for other layers
 * @param nOut          outputs of a dense or output layer, filters of a convolution; 0 for other layers
 * @param activation    activation after the affine map, or {@code null} for layers without one
 * @param hasBias       whether the layer has a bias
 * @param convolution   sizes, strides and padding of a convolution, or {@code null} (not a convolution, or one
 *                      whose input the reader could not follow)
 * @param pooling       kind, window and strides of a pooling layer, or {@code null} (not a pooling layer, or one
 *                      the reader could not follow)
 * @param loss          loss of an output layer, or {@code null}
 * @param paramOffset   where the layer's parameters start in DL4J's flattened parameter vector
 * @param paramCount    how many parameters the layer has
 */
public record LayerDescription(int index, LayerKind kind, NeuralNetConfiguration configuration,
                               InputPreProcessor preprocessor, ExampleShape input, ExampleShape output,
                               long nIn, long nOut, IActivation activation, boolean hasBias,
                               ConvolutionGeometry convolution, PoolingGeometry pooling, ILossFunction loss,
                               long paramOffset, long paramCount) {

    public LayerDescription {
        Objects.requireNonNull(kind, "layer kind must not be null");
        Objects.requireNonNull(configuration, "layer configuration must not be null");
        if (index < 0 || paramOffset < 0 || paramCount < 0) {
            throw new IllegalArgumentException("layer description: index, parameter offset and count must be >= 0,"
                    + " got " + index + ", " + paramOffset + ", " + paramCount);
        }
    }

    /** DL4J's layer configuration. */
    public Layer layer() {
        return configuration.getLayer();
    }

    /** The layer as messages name it, e.g. {@code layer 1 (BatchNormalization "bn")}. */
    public String label() {
        return label(index, layer());
    }

    /** A problem of this layer. */
    public ModelProblem problem(String problem, String fix) {
        return new ModelProblem(index, label(), problem, fix);
    }

    /**
     * This layer's parameters (or gradient, update) as views of a vector laid out like the network's flattened
     * parameters, keyed as DL4J keys them ({@code "W"}, {@code "b"}, ...) and shaped as DL4J's own parameter
     * initializer shapes them, so they equal {@code net.getLayer(index).paramTable()} for {@code net.params()}.
     *
     * @param flat a contiguous vector (any shape, such as {@code 1 x numParams}) with all of the network's entries
     * @throws IllegalArgumentException if {@code flat} is too short to hold this layer's parameters
     */
    public Map<String, INDArray> parameterViews(INDArray flat) {
        Objects.requireNonNull(flat, "flat vector must not be null");
        if (flat.length() < paramOffset + paramCount) {
            throw new IllegalArgumentException(label() + ": its parameters are entries " + paramOffset + " to "
                    + (paramOffset + paramCount) + " of the flattened vector, which has only " + flat.length()
                    + "; pass a vector laid out like net.params()");
        }
        if (paramCount == 0) {
            return Map.of();
        }
        // enforceView: a copy would silently detach the returned views from the caller's vector.
        INDArray vector = flat.reshape(flat.ordering(), true, flat.length());
        INDArray slice = vector.get(NDArrayIndex.interval(paramOffset, paramOffset + paramCount));
        return layer().initializer().getGradientsFromFlattened(configuration, slice);
    }

    /** One line, without DL4J's full configuration: label, kind, shapes and parameter range. */
    @Override
    public String toString() {
        return label() + ": " + kind + ", " + (input == null ? "?" : input) + " -> " + (output == null ? "?" : output)
                + ", parameters [" + paramOffset + ", " + (paramOffset + paramCount) + ")";
    }

    /** {@code layer i (Type "name")}; DL4J's default name {@code "layer" + i} repeats the index and is left out. */
    static String label(int index, Layer layer) {
        String name = layer.getLayerName();
        boolean named = name != null && !name.equals("layer" + index);
        return "layer " + index + " (" + layer.getClass().getSimpleName() + (named ? " \"" + name + "\"" : "") + ")";
    }
}
