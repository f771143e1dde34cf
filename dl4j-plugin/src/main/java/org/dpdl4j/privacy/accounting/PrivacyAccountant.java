package org.dpdl4j.privacy.accounting;

import java.util.List;

/**
 * A mutable ledger of {@link DpEvent}s together with the privacy loss they add up to. An accountant is
 * built for one {@link NeighbouringRelation}, declares which events it can analyse
 * ({@link #supports(DpEvent)}) and refuses every other one with an {@link UnsupportedEventException}
 * before touching its state. Accountants are not thread-safe; {@link #copy()} forks an independent one
 * (e.g. to try hypothetical events during calibration).
 */
public interface PrivacyAccountant {

    /** The neighbouring relation every guarantee of this accountant refers to. */
    NeighbouringRelation relation();

    /** Whether {@link #compose(DpEvent)} would accept the event (including every nested event). */
    boolean supports(DpEvent event);

    /**
     * Adds one occurrence of the event to the ledger.
     *
     * @return this accountant
     * @throws UnsupportedEventException if the event (or a nested event) cannot be analysed; the ledger is then unchanged
     */
    PrivacyAccountant compose(DpEvent event);

    /**
     * Adds {@code count} occurrences of the event, exactly as {@code compose(new SelfComposedEvent(event, count))}.
     *
     * @return this accountant
     */
    default PrivacyAccountant compose(DpEvent event, long count) {
        return compose(new SelfComposedEvent(event, count));
    }

    /** The guarantee at the given delta in (0, 1) with the chosen conversion, and its optimal order. */
    EpsilonBound epsilonBound(double delta, Conversion conversion);

    /** Epsilon at the given delta with the {@link Conversion#STANDARD} conversion. */
    default double epsilon(double delta) {
        return epsilonBound(delta, Conversion.STANDARD).epsilon();
    }

    /** Epsilon at the given delta with the chosen conversion. */
    default double epsilon(double delta, Conversion conversion) {
        return epsilonBound(delta, conversion).epsilon();
    }

    /** The smallest delta (capped at 1) for which the ledger is {@code (epsilon, delta)}-DP by the conversion. */
    double delta(double epsilon, Conversion conversion);

    /** {@link #delta(double, Conversion)} with the {@link Conversion#STANDARD} conversion. */
    default double delta(double epsilon) {
        return delta(epsilon, Conversion.STANDARD);
    }

    /** The composed events in order, as given (an unmodifiable snapshot). */
    List<DpEvent> ledger();

    /** An independent accountant with the same relation, settings and ledger. */
    PrivacyAccountant copy();

    /**
     * The name of this way of pricing, recorded with a run's ledger so that a resumed run is priced as it started
     * ({@link AccountantFactory#named}); the class name unless the accountant has a shorter one.
     */
    default String pricing() {
        return getClass().getSimpleName();
    }
}
