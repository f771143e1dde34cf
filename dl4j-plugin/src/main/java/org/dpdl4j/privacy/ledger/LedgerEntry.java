package org.dpdl4j.privacy.ledger;

import java.util.Objects;
import org.dpdl4j.privacy.accounting.DpEvent;

/**
 * One line of a run's privacy ledger: a mechanism applied {@code count} times with the same parameters.
 *
 * @param event       what one application released (its parameters are the event's)
 * @param count       how many times, at least 1
 * @param party       the party whose data the application touched, or {@link #ALL_PARTIES} when it touched every
 *                    protected unit of the run (a round of a synchronous protocol, a central step)
 * @param mechanism   what the application was, in words ("Decor round: private + pairwise Gaussian noise")
 * @param secureNoise whether its noise came from a cryptographically secure source; a seeded source voids the
 *                    guarantee of the entry, and statements say so
 * @param segment     0 for the run as started, then one more for every resume under changed settings
 */
public record LedgerEntry(DpEvent event, long count, int party, String mechanism, boolean secureNoise, int segment) {
    /** The party of an application that touched every protected unit. */
    public static final int ALL_PARTIES = -1;

    public LedgerEntry {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(mechanism, "mechanism");
        if (count < 1) {
            throw new IllegalArgumentException("a ledger entry records at least one application, got count " + count);
        }
        if (party < ALL_PARTIES) {
            throw new IllegalArgumentException("party must be >= 0, or ALL_PARTIES (-1), got " + party);
        }
        if (segment < 0) {
            throw new IllegalArgumentException("segment must be >= 0, got " + segment);
        }
    }

    /** The entry with its count replaced. */
    LedgerEntry withCount(long newCount) {
        return new LedgerEntry(event, newCount, party, mechanism, secureNoise, segment);
    }

    /** Whether two entries describe the same application (everything but the count is equal). */
    boolean sameApplication(LedgerEntry other) {
        return event.equals(other.event) && party == other.party && mechanism.equals(other.mechanism)
                && secureNoise == other.secureNoise && segment == other.segment;
    }
}
