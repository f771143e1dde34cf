package org.dpdl4j.optim;

import org.dpdl4j.privacy.accounting.NeighbouringRelation;

import java.util.random.RandomGenerator;

/**
 * How a private optimizer draws the examples of each step. The privacy analysis depends on it
 * (amplification by subsampling), so the accountant reads the scheme from the sampler itself and the
 * two cannot disagree.
 */
public sealed interface BatchSampler permits PoissonSampler, FixedSizeSampler {

    /** Size of the dataset sampled from. */
    long datasetSize();

    /** Expected number of examples per step: the divisor of the noisy gradient sum. */
    double expectedBatchSize();

    /** Probability that a given example is in a given step's batch. */
    double samplingRate();

    /** The neighbouring relation under which this scheme's amplification theorem holds. */
    NeighbouringRelation relation();

    /** Indices of the examples of one step, increasing; may be empty (Poisson sampling). */
    int[] sample(RandomGenerator random);

    /** Expected number of steps per epoch (one pass over the data in expectation). */
    default long stepsPerEpoch() {
        return stepsPerEpoch(samplingRate());
    }

    /** The steps of one epoch at sampling rate q: 1/q rounded to the nearest whole step, at least one. */
    static long stepsPerEpoch(double samplingRate) {
        return Math.max(1, Math.round(1.0 / samplingRate));
    }
}
