package org.dpdl4j.optim;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.ILossFunction;

import java.util.List;

/**
 * A feed-forward network of fully connected layers ending in a loss, extracted from a DL4J
 * configuration by {@link DpModelValidator}: everything the per-example gradient engine needs.
 *
 * @param layers    the layers, input first; the last one is the output layer
 * @param loss      the output layer's loss function (per example, as DL4J computes it)
 * @param numParams length of the flattened parameter vector
 * @param dataType  parameter data type
 */
public record DenseNetworkSpec(List<DenseLayerSpec> layers, ILossFunction loss, long numParams, DataType dataType) {
    public DenseNetworkSpec {
        layers = List.copyOf(layers);
        if (layers.isEmpty()) {
            throw new IllegalArgumentException("a network needs at least an output layer");
        }
    }

    /** The output layer. */
    public DenseLayerSpec output() {
        return layers.get(layers.size() - 1);
    }

    /** Number of input features. */
    public long nIn() {
        return layers.get(0).nIn();
    }

    /** Number of outputs (label columns). */
    public long nOut() {
        return output().nOut();
    }
}
