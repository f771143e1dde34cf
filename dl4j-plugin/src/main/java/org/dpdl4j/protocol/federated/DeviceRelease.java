package org.dpdl4j.protocol.federated;

import java.util.Arrays;
import org.dpdl4j.optim.DeviceNodeModels;
import org.dpdl4j.optim.RowClipping;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.PhiloxNoiseStreams;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The release and aggregation of one FedAvg-family round on the device where its participants trained (their updates
 * the device's gradient rows): FedAvg's weighted mean, central DP-FedAvg's clipping and sum (the server's noise, p
 * values, added on the host), local DP-FedAvg's clipping and the clients' noise (drawn on the host from each client's
 * stream, as {@link ClientRelease} draws it, and copied in, or drawn there from Philox streams) and sum. Only the aggregate comes back; the messages when
 * read ({@link #messages}). GOPA's reveal too: each party's private row plus its rows of {@code B U}, drawn on the
 * host and copied in, or, with Philox streams, drawn on the device ({@link DeviceNodeModels#drawPhiloxNoise}); verified
 * GOPA releases on the host. The arithmetic of {@link ClientRelease} and the trainer's aggregation, to float rounding.
 */
final class DeviceRelease {
    private final DeviceNodeModels device;
    private final int participants;
    private final long p;
    private final DataType type;
    private final GopaAveraging gopa;
    private final boolean gopaNoiseOnDevice;
    /** Local DP and GOPA: the noise rows the clients added this round (GOPA on the device: drawn when read); else null. */
    private INDArray clientNoise;
    /** Local DP or GOPA with the clients' noise drawn on the device: the messages read it from there. */
    private boolean noiseDrawnOnDevice;

    /**
     * @param device            the models of the round's participants, their updates in its gradient rows
     * @param gopa              GOPA's averaging (null for the other variants)
     * @param gopaNoiseOnDevice whether the device draws GOPA's noise itself (Philox streams, incidence set)
     */
    DeviceRelease(DeviceNodeModels device, int participants, long p, DataType type, GopaAveraging gopa,
                  boolean gopaNoiseOnDevice) {
        this.device = device;
        this.participants = participants;
        this.p = p;
        this.type = type;
        this.gopa = gopa;
        this.gopaNoiseOnDevice = gopaNoiseOnDevice;
    }

    /** Whether a round releases on the device: all variants, but verified GOPA (its checks need the host's values). */
    static boolean supports(FedAvgConfig config, boolean verified) {
        return config.variant() != FedAvgVariant.GOPA || !verified;
    }

    /**
     * The round's aggregate, the step the server takes before its rate ([1, p]).
     *
     * @param ids         the participants' client ids, increasing
     * @param sizes       every client's number of examples (for weighting by size)
     * @param clients     how many clients there are
     */
    INDArray aggregate(FedAvgConfig config, int[] ids, long round, NoiseStreams clientStreams, NoiseStreams serverStreams,
                       double[] sizes, int clients) {
        INDArray out = Nd4j.create(type, 1, p);
        double[] ones = new double[participants];
        Arrays.fill(ones, 1.0);
        double sigma = config.noiseMultiplier() * config.clipNorm();
        double divisor = config.sampling().expectedCount(clients);
        switch (config.variant()) {
            case FEDAVG -> {
                device.weightedSum(config.weighting().weights(ids, sizes), false, out);
                return out;
            }
            case DP_CENTRAL -> {
                // The rows stay the raw updates the uplinks carried; the server's clip is a weight on each.
                device.clipRows(Double.POSITIVE_INFINITY);
                device.weightedSum(RowClipping.factors(device.rowNorms(), config.clipNorm()), false, out);
                serverStreams.privateNoise(0, round).addGaussian(out, sigma);
                return out.divi(divisor);
            }
            case DP_LOCAL -> {
                device.clipRows(config.clipNorm());
                if (clientStreams instanceof PhiloxNoiseStreams philox) {
                    device.drawPrivatePhiloxRows(philox.masterSeed(), round, ids, sigma);   // each client's row, there
                    noiseDrawnOnDevice = true;
                } else {
                    clientNoise = Nd4j.zeros(type, participants, p);
                    clientStreams.addOwnPrivateNoise(clientNoise, ids, round, sigma);   // row j: client j's stream
                    device.uploadNoise(clientNoise);
                }
                device.weightedSum(ones, true, out);
                return out.divi(divisor);
            }
            case GOPA -> {
                device.clipRows(config.clipNorm());
                if (gopaNoiseOnDevice) {
                    device.drawPhiloxNoise(((PhiloxNoiseStreams) clientStreams).masterSeed(), round, gopa.sigmaPrivate(),
                            round, gopa.sigmaPairwise());
                    noiseDrawnOnDevice = true;
                } else {
                    clientNoise = gopaNoise(clientStreams, round);
                    device.uploadNoise(clientNoise);
                }
                device.weightedSum(ones, true, out);
                return out.divi(divisor);
            }
            default -> throw new IllegalStateException(config.variant() + " releases on the host");
        }
    }

    /**
     * What the participants' uplinks carried, one row each, copied from the device: the updates (FedAvg and central
     * DP-FedAvg, unclipped: the trusted server clips only what it sums), or the clipped updates plus the clients' noise (local DP;
     * GOPA: each party's private row plus its rows of {@code B U}, read from the device when drawn there). Valid until
     * the device's next round.
     */
    INDArray messages() {
        INDArray out = Nd4j.create(type, participants, p);
        device.downloadGradients(out);
        if (noiseDrawnOnDevice) {
            clientNoise = Nd4j.create(type, participants, p);
            device.downloadNoise(clientNoise);
        }
        return clientNoise == null ? out : out.addi(clientNoise);
    }

    /** GOPA's noise of a round, every party's private row plus its rows of {@code B U}: its reveal of zeros. */
    private INDArray gopaNoise(NoiseStreams streams, long round) {
        return gopa.reveal(Nd4j.zeros(type, participants, p), streams, round);
    }
}
