package org.dpdl4j.privacy.accounting;

import java.util.Objects;

/**
 * The same event run {@code count} times, each run on fresh randomness (adaptive composition).
 *
 * @param event the repeated event
 * @param count how many times, {@code >= 0}
 */
public record SelfComposedEvent(DpEvent event, long count) implements DpEvent {
    public SelfComposedEvent {
        Objects.requireNonNull(event, "SelfComposedEvent: the repeated event must not be null");
        if (count < 0) {
            throw new IllegalArgumentException("SelfComposedEvent: count must be >= 0, got " + count);
        }
    }
}
