package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.util.Objects;

/**
 * The opening of a party's pairwise term towards a neighbour that dropped out: with the neighbour's contribution
 * missing, the term no longer cancels in the sum, so the party reveals it (values and blindings) and the verifier
 * subtracts it after checking that it opens the party's published commitments. As in GOPA without verification, the
 * party's published value then hides behind one mask fewer.
 *
 * @param party     the party that opens
 * @param peer      the neighbour that dropped out
 * @param values    {@code Delta_party,peer} per coordinate, in {@link FixedPoint} units
 * @param blindings the blindings of the party's commitments to them
 */
public record PairwiseOpening(int party, int peer, long[] values, BigInteger[] blindings) {
    public PairwiseOpening {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(blindings, "blindings");
        if (values.length != blindings.length) {
            throw new IllegalArgumentException("an opening needs one blinding per value, got " + values.length + " values and "
                    + blindings.length + " blindings");
        }
    }

    /** Party {@code party}'s opening of its term towards {@code peer}, from its secrets. */
    public static PairwiseOpening of(int party, PartySecrets secrets, int peer) {
        PairwiseTerm term = secrets.pairwise().stream().filter(t -> t.peer() == peer).findFirst().orElseThrow(
                () -> new IllegalArgumentException("party " + party + " has no pairwise term with " + peer + ": not a neighbour"));
        return new PairwiseOpening(party, peer, term.values().clone(), term.ownBlindings().clone());
    }

    /** Whether this opens, coordinate by coordinate, the commitments to the term towards {@code peer} in {@code contribution}. */
    public boolean opens(PedersenGroup group, PartyContribution contribution) {
        if (contribution.party() != party || contribution.coordinates().size() != values.length) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            ECPoint committed = contribution.coordinates().get(i).pairwiseCommitments().get(peer);
            if (committed == null || !group.commit(FixedPoint.toScalar(values[i], group), blindings[i]).equals(committed.normalize())) {
                return false;
            }
        }
        return true;
    }

    /** Whether this opens, coordinate by coordinate, the commitments to the term towards {@code peer} in {@code published}. */
    public boolean opens(PedersenGroup group, PartyCommitments published) {
        java.util.List<ECPoint> committed = published.pairwise().get(peer);
        if (published.party() != party || committed == null || committed.size() != values.length) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            if (!group.commit(FixedPoint.toScalar(values[i], group), blindings[i]).equals(committed.get(i).normalize())) {
                return false;
            }
        }
        return true;
    }
}
