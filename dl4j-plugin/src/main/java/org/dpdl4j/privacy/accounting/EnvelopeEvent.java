package org.dpdl4j.privacy.accounting;

import java.util.List;
import java.util.Objects;

/**
 * A mechanism that costs, at every Renyi order, at most the costliest of {@code events}: one of them run, chosen at
 * random independently of the data (the Renyi divergence of two mixtures with the same data-independent weights is at
 * most the largest divergence of their components), or one bound that holds for several parties at once. Tuning uses
 * it for "train one configuration drawn from the candidate pool": its curve is the pointwise maximum of the pool's.
 *
 * @param events the possible mechanisms (at least one)
 */
public record EnvelopeEvent(List<DpEvent> events) implements DpEvent {
    public EnvelopeEvent {
        Objects.requireNonNull(events, "events");
        if (events.isEmpty()) {
            throw new IllegalArgumentException("an envelope needs at least one event");
        }
        events.forEach(e -> Objects.requireNonNull(e, "an envelope's event is null"));
        events = List.copyOf(events);
    }

    /** The envelope of the given events (one event is its own envelope). */
    public static DpEvent of(List<DpEvent> events) {
        List<DpEvent> distinct = events.stream().distinct().toList();
        return distinct.size() == 1 ? distinct.get(0) : new EnvelopeEvent(distinct);
    }
}
