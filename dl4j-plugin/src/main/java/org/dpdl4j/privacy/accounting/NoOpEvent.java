package org.dpdl4j.privacy.accounting;

/** A step that touches no private data: it costs nothing under every accountant. */
public record NoOpEvent() implements DpEvent {
}
