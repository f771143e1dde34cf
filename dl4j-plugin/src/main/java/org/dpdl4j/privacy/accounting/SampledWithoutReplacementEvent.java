package org.dpdl4j.privacy.accounting;

import java.util.Objects;

/**
 * The inner event applied to a uniformly random subset of exactly {@code sampleSize} units drawn
 * without replacement from {@code sourceSize} units (fixed-size batches). Its amplification is
 * analysed under {@link NeighbouringRelation#REPLACE_ONE} (the dataset size is public and fixed).
 *
 * @param sourceSize the number of units sampled from, at least 1
 * @param sampleSize the number of units drawn, in [0, sourceSize]
 * @param event the mechanism run on the sample
 */
public record SampledWithoutReplacementEvent(long sourceSize, long sampleSize, DpEvent event) implements DpEvent {
    public SampledWithoutReplacementEvent {
        if (sourceSize < 1) {
            throw new IllegalArgumentException("SampledWithoutReplacementEvent: sourceSize must be >= 1, got " + sourceSize);
        }
        if (sampleSize < 0 || sampleSize > sourceSize) {
            throw new IllegalArgumentException("SampledWithoutReplacementEvent: sampleSize must lie in [0, sourceSize="
                    + sourceSize + "], got " + sampleSize);
        }
        Objects.requireNonNull(event, "SampledWithoutReplacementEvent: the sampled event must not be null");
    }

    /** The sampling ratio {@code sampleSize / sourceSize}. */
    public double samplingRatio() {
        return (double) sampleSize / sourceSize;
    }
}
