package org.dpdl4j.protocol.federated;

import org.dpdl4j.optim.RowClipping;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What the participants of a FedAvg-family round do to their updates before the updates leave them: nothing in
 * FedAvg and central DP-FedAvg (the server clips), clip and add their own noise in local DP-FedAvg, clip and reveal
 * through GOPA's private and pairwise noise. The same for all clients in one process and for a block of them.
 */
final class ClientRelease {
    private ClientRelease() {
    }

    /** GOPA's reveal of the clipped updates of the participants at hand. */
    interface Reveal {
        INDArray apply(INDArray clipped, long round);
    }

    /**
     * The participants' messages (rows in participant order; {@code deltas} is changed in place).
     *
     * @param participants the client ids of the rows of {@code deltas}
     */
    static INDArray release(FedAvgConfig config, INDArray deltas, int[] participants, long round, NoiseStreams clientStreams,
                            Reveal gopa) {
        return switch (config.variant()) {
            case FEDAVG, DP_CENTRAL -> deltas;
            case DP_LOCAL -> {
                RowClipping.clip(deltas, config.clipNorm());
                double sigma = config.noiseMultiplier() * config.clipNorm();
                clientStreams.addOwnPrivateNoise(deltas, participants, round, sigma);   // row j: client j's stream
                yield deltas;
            }
            case GOPA -> {
                RowClipping.clip(deltas, config.clipNorm());
                yield gopa.apply(deltas, round);
            }
        };
    }
}
