package org.dpdl4j.nn;

import java.util.List;
import java.util.Objects;
import org.deeplearning4j.nn.conf.BackpropType;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * A DL4J network as {@link ModelReader} reads it: its layers, input, parameter layout and data type, and every
 * problem that keeps the reader from describing it completely. Computations add their own, narrower rules
 * (per-example clipping takes dense layers only, gradient matching only some activations and losses).
 *
 * @param layers       every layer, input first, including those the reader does not understand
 * @param inputSize    length of one flat input row, or -1 where the reader cannot tell (see {@link #problems()})
 * @param dataType     the network's data type
 * @param backpropType DL4J's backprop type (standard or truncated BPTT)
 * @param problems     what the reader does not support, in the order found; empty for a fully described network
 */
public record ModelDescription(List<LayerDescription> layers, long inputSize, DataType dataType,
                               BackpropType backpropType, List<ModelProblem> problems) {

    public ModelDescription {
        layers = List.copyOf(layers);
        problems = List.copyOf(problems);
        Objects.requireNonNull(dataType, "data type must not be null");
        Objects.requireNonNull(backpropType, "backprop type must not be null");
    }

    /** Whether the reader found no problem. */
    public boolean isReadable() {
        return problems.isEmpty();
    }

    /** Length of DL4J's flattened parameter vector. */
    public long numParams() {
        return layers.stream().mapToLong(LayerDescription::paramCount).sum();
    }

    /** The last layer (an output layer when {@link #isReadable()}). */
    public LayerDescription output() {
        if (layers.isEmpty()) {
            throw new IllegalStateException("the network has no layers");
        }
        return layers.get(layers.size() - 1);
    }
}
