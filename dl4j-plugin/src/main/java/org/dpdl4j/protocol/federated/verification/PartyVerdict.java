package org.dpdl4j.protocol.federated.verification;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The verifier's finding on one party.
 *
 * @param party    the party's index in the graph
 * @param failures the properties not confirmed; empty when the contribution passed
 * @param reasons  one line per failed check, naming the coordinate, edge or field
 */
public record PartyVerdict(int party, Set<VerificationFailure> failures, List<String> reasons) {
    public PartyVerdict {
        failures = failures.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(failures));
        reasons = List.copyOf(reasons);
    }

    /** Whether every check passed. */
    public boolean passed() {
        return failures.isEmpty();
    }

    @Override
    public String toString() {
        return "party " + party + (passed() ? ": passed" : ": FAILED " + failures + " " + reasons);
    }
}
