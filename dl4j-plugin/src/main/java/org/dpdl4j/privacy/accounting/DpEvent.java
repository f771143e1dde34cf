package org.dpdl4j.privacy.accounting;

/**
 * An immutable description of one differentially private release, or of a structured combination
 * of releases, as recorded in an accountant's ledger. An event states <em>what</em> was done
 * (which noise, on what sample, how often); what it costs depends on the accountant and on its
 * {@link NeighbouringRelation}, and an accountant that cannot analyse an event refuses it with an
 * {@link UnsupportedEventException} instead of guessing.
 *
 * <p>Noise multiplier convention (all noise-adding events): each protected unit contributes a vector
 * bounded in norm by {@code C}, the contributions are summed, and noise of scale {@code z * C} is added.
 * Under {@link NeighbouringRelation#ADD_OR_REMOVE_ONE} the sum moves by at most {@code C}; under
 * {@link NeighbouringRelation#REPLACE_ONE} by at most {@code 2C}. The meaning of an event never
 * changes between accountants; only the analysis does.
 */
public sealed interface DpEvent permits GaussianEvent, LaplaceEvent, PoissonSampledEvent,
        SampledWithoutReplacementEvent, SelfComposedEvent, ComposedEvent, ZCdpEvent, CorrelatedGaussianEvent,
        NoOpEvent, NonPrivateEvent, RepeatAndSelectEvent, EnvelopeEvent {
}
