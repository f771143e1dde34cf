package org.dpdl4j.protocol.federated;

import org.dpdl4j.runtime.LearningRate;

import java.util.Objects;

/**
 * The settings of a FedAvg-family run (spec 7.1-7.3).
 *
 * @param variant            FedAvg, DP-FedAvg local or central, or GOPA averaging
 * @param rounds             T
 * @param localSteps         L local SGD steps per round
 * @param localBatchSize     mini-batch size of a local step, uniform without replacement; 0 = the full local dataset
 * @param localRate          local learning rate schedule over rounds
 * @param serverRate         server step on the averaged update: {@code theta <- theta + serverRate * average} (1 = McMahan)
 * @param sampling           which clients take part in a round
 * @param weighting          plain FedAvg's weights (private variants use uniform weights over the expected count)
 * @param clipNorm           S, the clip of each client's update (private variants; +Infinity for FedAvg)
 * @param noiseMultiplier    z: the noise std is z S (per client for local DP and GOPA, on the sum for central DP)
 * @param pairwiseMultiplier GOPA's pairwise noise std over S ({@code sigma_Delta / S}); 0 otherwise
 * @param seed               master seed of the seeded streams
 */
public record FedAvgConfig(FedAvgVariant variant, long rounds, int localSteps, int localBatchSize, LearningRate localRate,
                           double serverRate, ClientSampling sampling, UpdateWeighting weighting, double clipNorm,
                           double noiseMultiplier, double pairwiseMultiplier, long seed) implements java.io.Serializable {
    public FedAvgConfig {
        Objects.requireNonNull(variant, "variant");
        Objects.requireNonNull(localRate, "local learning rate");
        Objects.requireNonNull(sampling, "client sampling");
        Objects.requireNonNull(weighting, "weighting");
        if (rounds < 1) {
            throw new IllegalArgumentException("the number of rounds must be >= 1, got " + rounds);
        }
        if (localSteps < 1) {
            throw new IllegalArgumentException("the number of local steps L must be >= 1, got " + localSteps);
        }
        if (localBatchSize < 0) {
            throw new IllegalArgumentException("the local batch size must be >= 1, or 0 for the full local dataset, got " + localBatchSize);
        }
        if (!(serverRate > 0) || Double.isInfinite(serverRate)) {
            throw new IllegalArgumentException("the server rate must be a positive finite number, got " + serverRate);
        }
        if (variant.isPrivate()) {
            if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
                throw new IllegalArgumentException(variant.cliName() + " needs a positive finite update clip S, got " + clipNorm);
            }
            if (!(noiseMultiplier > 0) || Double.isInfinite(noiseMultiplier)) {
                throw new IllegalArgumentException(variant.cliName() + " needs a positive finite noise multiplier z, got "
                        + noiseMultiplier + "; calibrate it from a target epsilon or give it explicitly");
            }
            if (weighting != UpdateWeighting.UNIFORM) {
                throw new IllegalArgumentException(variant.cliName() + " averages with uniform weights over the expected number of"
                        + " participants: data-size weights would change each client's contribution bound and leak the sizes");
            }
        } else if (!Double.isInfinite(clipNorm) || noiseMultiplier != 0) {
            throw new IllegalArgumentException("plain FedAvg neither clips nor adds noise: use clip +Infinity and noise 0 (got clip "
                    + clipNorm + ", noise multiplier " + noiseMultiplier + ")");
        }
        if (variant == FedAvgVariant.GOPA) {
            if (!(sampling instanceof ClientSampling.Everyone)) {
                throw new IllegalArgumentException("GOPA needs every party of its graph in every round (its pairwise noise only cancels"
                        + " over the whole graph); use no client sampling (rate 1)");
            }
            if (!(pairwiseMultiplier >= 0) || Double.isInfinite(pairwiseMultiplier)) {
                throw new IllegalArgumentException("GOPA's pairwise noise multiplier must be a finite number >= 0, got " + pairwiseMultiplier);
            }
        } else if (pairwiseMultiplier != 0) {
            throw new IllegalArgumentException(variant.cliName() + " adds no pairwise noise; the pairwise multiplier must be 0");
        }
    }

    /** Plain FedAvg. */
    public static FedAvgConfig plain(long rounds, int localSteps, int localBatchSize, LearningRate localRate, ClientSampling sampling,
                                     UpdateWeighting weighting, long seed) {
        return new FedAvgConfig(FedAvgVariant.FEDAVG, rounds, localSteps, localBatchSize, localRate, 1.0, sampling, weighting,
                Double.POSITIVE_INFINITY, 0.0, 0.0, seed);
    }
}
