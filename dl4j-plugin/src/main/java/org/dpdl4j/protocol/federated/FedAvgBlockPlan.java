package org.dpdl4j.protocol.federated;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.dpdl4j.graph.OperatorRows;
import org.dpdl4j.optim.BlockDevice;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What a worker needs to run clients {@code first..first+count-1} of a FedAvg-family run ({@link FedAvgBlock}).
 *
 * @param block      the block's index in the run (which of a worker's devices it takes, when it takes one)
 * @param first      the first client
 * @param count      how many clients
 * @param model      the network's configuration as JSON
 * @param config     the run's settings
 * @param features   each client's examples
 * @param labels     each client's labels
 * @param streams    the streams of these clients (and, for GOPA, of their edges) only
 * @param gopaSigmas GOPA: sigma_eta and sigma_Delta, else null
 * @param incidence  GOPA: these clients' rows of the incidence matrix of its graph, else null
 * @param device     where the block's local training computes, chosen on its worker
 */
public record FedAvgBlockPlan(int block, int first, int count, String model, FedAvgConfig config, List<Rows> features,
                              List<Rows> labels, NoiseStreams streams, double[] gopaSigmas, OperatorRows incidence,
                              BlockDevice device) implements Serializable {
    public FedAvgBlockPlan {
        Objects.requireNonNull(device, "block device");
        if (block < 0) {
            throw new IllegalArgumentException("a block's index is at least 0, got " + block);
        }
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(streams, "streams");
        if (count < 1 || features.size() != count || labels.size() != count) {
            throw new IllegalArgumentException("a block of " + count + " clients needs the features and labels of each, got "
                    + features.size() + " and " + labels.size());
        }
        if (!(streams instanceof Serializable)) {
            throw new IllegalArgumentException("the clients' noise streams (" + streams.getClass().getName() + ") cannot travel"
                    + " to a worker: they are not java.io.Serializable");
        }
        if ((config.variant() == FedAvgVariant.GOPA) != (incidence != null && gopaSigmas != null)) {
            throw new IllegalArgumentException("GOPA's blocks, and only they, carry their rows of its graph and its noise levels");
        }
        features = List.copyOf(features);
        labels = List.copyOf(labels);
    }
}
