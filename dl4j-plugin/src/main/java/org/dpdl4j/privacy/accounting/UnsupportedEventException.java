package org.dpdl4j.privacy.accounting;

/**
 * Thrown when an accountant is asked to compose an event it cannot analyse soundly. The message names
 * the accountant, the offending (sub-)event, the reason, and what the accountant does support.
 * Accountants never skip such an event: an ignored event would understate the privacy loss.
 */
public class UnsupportedEventException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient DpEvent event;

    public UnsupportedEventException(String accountant, DpEvent event, String reason, String supported) {
        super(accountant + " cannot account for " + event + ": " + reason + ". Supported: " + supported);
        this.event = event;
    }

    /** The event as passed to the accountant; the message names the offending nested event, if any. */
    public DpEvent event() {
        return event;
    }
}
