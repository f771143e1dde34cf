package org.dpdl4j.privacy.accounting;

import java.util.Objects;

/**
 * The inner event applied to a Poisson sample: each unit is included independently with
 * probability {@code samplingProbability}. Amplification by Poisson sampling is analysed under
 * {@link NeighbouringRelation#ADD_OR_REMOVE_ONE}.
 *
 * @param samplingProbability q in [0, 1]
 * @param event the mechanism run on the sample
 */
public record PoissonSampledEvent(double samplingProbability, DpEvent event) implements DpEvent {
    public PoissonSampledEvent {
        if (!(samplingProbability >= 0 && samplingProbability <= 1)) {
            throw new IllegalArgumentException("PoissonSampledEvent: samplingProbability must lie in [0, 1], got "
                    + samplingProbability + " (for batches of expected size b out of n use b/n)");
        }
        Objects.requireNonNull(event, "PoissonSampledEvent: the sampled event must not be null");
    }
}
