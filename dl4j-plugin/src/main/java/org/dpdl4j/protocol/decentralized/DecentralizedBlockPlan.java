package org.dpdl4j.protocol.decentralized;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.dpdl4j.graph.OperatorRows;
import org.dpdl4j.optim.BlockDevice;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What a worker needs to run nodes {@code first..first+count-1} of a decentralized run ({@link DecentralizedBlock}):
 * everything travels as plain serializable values.
 *
 * @param block        the block's index in the run (which of a worker's devices it takes, when it takes one)
 * @param first        the first node
 * @param count        how many nodes
 * @param model        the network's configuration as JSON (every node's model has its layout)
 * @param config       the run's settings
 * @param features     each node's examples
 * @param labels       each node's labels
 * @param datasetSizes every node's number of examples (all n): public sizes that fix how wide a round's batches are
 * @param streams      the streams of these nodes and of their edges only
 * @param gossip       these nodes' rows of the mixing matrix
 * @param incidence    Decor: these nodes' rows of the incidence matrix (whose reads are their edges), else null
 * @param device       where the block computes, chosen on its worker
 */
public record DecentralizedBlockPlan(int block, int first, int count, String model, DecentralizedConfig config, List<Rows> features,
                                     List<Rows> labels, long[] datasetSizes, NoiseStreams streams, OperatorRows gossip,
                                     OperatorRows incidence, BlockDevice device) implements Serializable {
    public DecentralizedBlockPlan {
        Objects.requireNonNull(device, "block device");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(streams, "streams");
        Objects.requireNonNull(gossip, "gossip rows");
        if (block < 0) {
            throw new IllegalArgumentException("a block's index is at least 0, got " + block);
        }
        if (count < 1 || features.size() != count || labels.size() != count) {
            throw new IllegalArgumentException("a block of " + count + " nodes needs the features and labels of each, got "
                    + features.size() + " and " + labels.size());
        }
        if (!(streams instanceof Serializable)) {
            throw new IllegalArgumentException("the noise streams (" + streams.getClass().getName() + ") cannot travel to a"
                    + " worker: they are not java.io.Serializable");
        }
        features = List.copyOf(features);
        labels = List.copyOf(labels);
    }

    /** The ids of the nodes, increasing. */
    public int[] nodes() {
        return java.util.stream.IntStream.range(first, first + count).toArray();
    }
}
