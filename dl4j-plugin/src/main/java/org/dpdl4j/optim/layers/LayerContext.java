package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.dpdl4j.nn.ModelProblem;
import org.nd4j.linalg.api.buffer.DataType;

import java.util.Objects;

/**
 * What a {@link ExampleLayerRegistry.Factory} gets to build the per-example view of one DL4J layer.
 *
 * @param index          position of the layer in the network (layer index, or vertex index in a graph); used in messages
 * @param label          the layer as messages name it, e.g. {@code layer 2 (ConvolutionLayer)}
 * @param configuration  DL4J's configuration of the layer
 * @param implementation DL4J's instantiated layer, to which layers without parameters delegate
 * @param parameters     where the layer's parameters lie in the network's flattened parameter vector
 * @param dataType       the network's parameter data type
 */
public record LayerContext(int index, String label, NeuralNetConfiguration configuration,
                           org.deeplearning4j.nn.api.Layer implementation, ParameterSlots parameters, DataType dataType) {
    public LayerContext {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(configuration, "configuration");
        Objects.requireNonNull(implementation, "implementation");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(dataType, "dataType");
    }

    /** DL4J's layer configuration. */
    public Layer layer() {
        return configuration.getLayer();
    }

    /** A problem of this layer, for the refusal that lists every problem of a network. */
    public ModelProblem problem(String problem, String fix) {
        return new ModelProblem(index, label, problem, fix);
    }
}
