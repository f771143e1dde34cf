package org.dpdl4j.privacy.ledger;

import java.util.Objects;
import org.dpdl4j.privacy.accounting.DpEvent;

/**
 * One mechanism application a step is about to make: what it releases and whose data it touches.
 *
 * @param party     the party, or {@link LedgerEntry#ALL_PARTIES}
 * @param event     the release
 * @param mechanism what it is, in words
 */
public record Charge(int party, DpEvent event, String mechanism) {
    public Charge {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(mechanism, "mechanism");
        if (party < LedgerEntry.ALL_PARTIES) {
            throw new IllegalArgumentException("party must be >= 0, or ALL_PARTIES (-1), got " + party);
        }
    }

    /** An application that touches every protected unit. */
    public static Charge ofAll(DpEvent event, String mechanism) {
        return new Charge(LedgerEntry.ALL_PARTIES, event, mechanism);
    }
}
