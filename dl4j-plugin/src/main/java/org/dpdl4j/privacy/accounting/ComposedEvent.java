package org.dpdl4j.privacy.accounting;

import java.util.List;
import java.util.Objects;

/**
 * A sequence of events, run one after the other on fresh randomness (adaptive composition).
 *
 * @param events the events, copied into an unmodifiable list; none may be null
 */
public record ComposedEvent(List<DpEvent> events) implements DpEvent {
    public ComposedEvent {
        Objects.requireNonNull(events, "ComposedEvent: the event list must not be null");
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) == null) {
                throw new IllegalArgumentException("ComposedEvent: event at index " + i + " is null");
            }
        }
        events = List.copyOf(events);
    }

    /** Convenience constructor from varargs. */
    public static ComposedEvent of(DpEvent... events) {
        return new ComposedEvent(List.of(events));
    }
}
