package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.runtime.LearningRate;

import java.util.Objects;

/**
 * Everything a decentralized run needs besides the graph, the data and the model.
 *
 * @param algorithm    D-SGD, Decor, or the LDP / CDP baselines
 * @param unit         {@link ProtectedUnit#USER}: clip each node's local gradient as a whole;
 *                     {@link ProtectedUnit#EXAMPLE}: clip each example's gradient, then average
 * @param objective    whether the local objective is the mean or the sum over the batch
 * @param clipNorm     C (ignored by D-SGD)
 * @param sigmaCdp     std of each node's private noise (on the local gradient)
 * @param sigmaCor     std of each edge's pairwise noise (Decor only)
 * @param learningRate step size schedule
 * @param weightDecay  lambda: {@code x <- (1 - eta lambda) x - eta g}
 * @param batchSize    examples per node and round (expected size under Poisson sampling); ignored for FULL_BATCH
 * @param sampling     POISSON, FIXED_SIZE_WITHOUT_REPLACEMENT, or FULL_BATCH (every local example every round)
 * @param rounds       T
 * @param seed         master seed of every seeded stream (sampling, seeded noise)
 * @param compatibility reference-code deviations (Decor only; never on by default)
 */
public record DecentralizedConfig(DecentralizedAlgorithm algorithm, ProtectedUnit unit, LocalObjective objective,
                                  double clipNorm, double sigmaCdp, double sigmaCor, LearningRate learningRate,
                                  double weightDecay, int batchSize, SamplingScheme sampling, long rounds, long seed,
                                  DecorCompatibility compatibility) implements java.io.Serializable {
    public DecentralizedConfig {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(unit, "protected unit");
        Objects.requireNonNull(objective, "local objective");
        Objects.requireNonNull(learningRate, "learning rate");
        Objects.requireNonNull(sampling, "sampling");
        Objects.requireNonNull(compatibility, "compatibility");
        if (algorithm.isPrivate() && (!(clipNorm > 0) || Double.isInfinite(clipNorm))) {
            throw new IllegalArgumentException(algorithm + " needs a positive finite clip norm, got " + clipNorm);
        }
        if (algorithm.isPrivate() && !(sigmaCdp > 0)) {
            throw new IllegalArgumentException(algorithm + " needs sigma_cdp > 0 (got " + sigmaCdp
                    + "); calibrate it from a target epsilon or give it explicitly");
        }
        if (!(sigmaCor >= 0)) {
            throw new IllegalArgumentException("sigma_cor must be >= 0, got " + sigmaCor);
        }
        if (algorithm != DecentralizedAlgorithm.DECOR && sigmaCor != 0) {
            throw new IllegalArgumentException(algorithm + " adds no pairwise noise; sigma_cor must be 0, got " + sigmaCor);
        }
        if (algorithm != DecentralizedAlgorithm.DECOR && compatibility.any()) {
            throw new IllegalArgumentException("reference-code compatibility applies to Decor only");
        }
        if (algorithm.isPrivate() && unit == ProtectedUnit.EXAMPLE && objective == LocalObjective.SUM) {
            // With the sum, one example moves its node's gradient by up to C, not C / batch as the example-level
            // analysis assumes.
            throw new IllegalArgumentException("example-level privacy needs the mean local objective: with the sum, one"
                    + " example moves its node's gradient by up to C, more than the example-level analysis covers; use"
                    + " LocalObjective.MEAN or user-level privacy");
        }
        if (!(weightDecay >= 0)) {
            throw new IllegalArgumentException("weight decay must be >= 0, got " + weightDecay);
        }
        if (sampling != SamplingScheme.FULL_BATCH && batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, got " + rounds);
        }
    }
}
