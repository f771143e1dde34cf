package org.dpdl4j.protocol.federated;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.dpdl4j.optim.BlockDevice;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What a worker needs to run machines {@code first..first+count-1} of a (DP-)mu^2-FL run ({@link Mu2Block}).
 *
 * @param block    the block's index in the run (which of a worker's devices it takes, when it takes one)
 * @param first    the first machine
 * @param count    how many machines
 * @param model    the network's configuration as JSON
 * @param config   the run's settings
 * @param features each machine's examples of the whole run, {@code T b} rows in the order the rounds use them
 * @param labels   each machine's labels, likewise
 * @param streams  with an untrusted server, the streams of these machines only (they add their own noise); else null
 * @param device   where the block's machines compute, chosen on its worker
 */
public record Mu2BlockPlan(int block, int first, int count, String model, Mu2Config config, List<Rows> features,
                           List<Rows> labels, NoiseStreams streams, BlockDevice device) implements Serializable {
    public Mu2BlockPlan {
        Objects.requireNonNull(device, "block device");
        if (block < 0) {
            throw new IllegalArgumentException("a block's index is at least 0, got " + block);
        }
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(config, "config");
        if (count < 1 || features.size() != count || labels.size() != count) {
            throw new IllegalArgumentException("a block of " + count + " machines needs the features and labels of each, got "
                    + features.size() + " and " + labels.size());
        }
        if (machinesAddNoise(config) != (streams != null)) {
            throw new IllegalArgumentException("machines carry noise streams exactly when they add noise themselves"
                    + " (a private run with an untrusted server)");
        }
        if (streams != null && !(streams instanceof Serializable)) {
            throw new IllegalArgumentException("the machines' noise streams (" + streams.getClass().getName() + ") cannot travel"
                    + " to a worker: they are not java.io.Serializable");
        }
        features = List.copyOf(features);
        labels = List.copyOf(labels);
    }

    /** Whether the machines add their own noise to what they send: a private run with an untrusted server. */
    static boolean machinesAddNoise(Mu2Config config) {
        return config.noise().isPrivate() && config.trust() == ServerTrust.UNTRUSTED;
    }
}
