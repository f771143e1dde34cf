package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Party k's proofs for the coordinates a round's {@link SpotCheck} chose: for each, the range, cancellation and sum
 * proofs of {@link PartyContribution}, under the same contexts (this round, this party, the coordinate's own index),
 * about the commitments k published before the challenge.
 *
 * @param party       k
 * @param round       the round
 * @param coordinates the proofs, by coordinate index
 */
public record SpotCheckProof(int party, long round, SortedMap<Integer, CoordinateProofs> coordinates) {
    public SpotCheckProof {
        coordinates = Collections.unmodifiableSortedMap(new TreeMap<>(coordinates));
    }

    /**
     * Proves the chosen coordinates of what party k committed to.
     *
     * @throws IllegalArgumentException if a chosen value lies outside [0, 1]: clip the values before committing
     */
    public static SpotCheckProof prove(PedersenGroup group, PartyCommitments published, PartySecrets secrets, int[] chosen,
                                       SecureRandom random) {
        for (int i : chosen) {
            long value = secrets.values()[i];
            if (value < 0 || value > PartyContribution.VALUE_UPPER_BOUND) {
                throw new IllegalArgumentException("party " + published.party() + "'s coordinate " + i + " is "
                        + FixedPoint.decode(value) + ", outside [0, 1]: no valid range proof exists; clip the values before committing");
            }
        }
        return proveAsIs(group, published, secrets, chosen, random);
    }

    /**
     * What {@link #prove} gives, without its range check: a false statement gives proofs that do not verify.
     * Package-private, for the tests that play a cheating party.
     */
    static SpotCheckProof proveAsIs(PedersenGroup group, PartyCommitments published, PartySecrets secrets, int[] chosen,
                                    SecureRandom random) {
        Objects.requireNonNull(published, "published");
        SortedMap<Integer, CoordinateProofs> out = new TreeMap<>();
        for (int i : chosen) {
            ProofContext context = ProofContext.of(published.round(), published.party(), i);
            BigInteger sumBlinding = secrets.valueBlindings()[i].add(secrets.noiseBlindings()[i]);
            SortedMap<Integer, BlindingProof> cancellation = new TreeMap<>();
            for (PairwiseTerm term : secrets.pairwise()) {
                BigInteger own = term.ownBlindings()[i];
                BigInteger peer = term.peerBlindings()[i];
                ECPoint mine = published.pairwise().get(term.peer()).get(i);
                // what the peer publishes if it is honest: a commitment to -Delta_kl with its blinding
                ECPoint theirs = group.commit(FixedPoint.toScalar(-term.values()[i], group), peer);
                cancellation.put(term.peer(), BlindingProof.prove(group, mine.add(theirs).normalize(), own.add(peer),
                        PartyContribution.cancellationContext(context, term.peer()), random));
                sumBlinding = sumBlinding.add(own);
            }
            RangeProof range = RangeProof.prove(group, secrets.values()[i], secrets.valueBlindings()[i],
                    PartyContribution.VALUE_UPPER_BOUND, context, random);
            BlindingProof sum = BlindingProof.prove(group, published.sumStatement(group, i), sumBlinding,
                    PartyContribution.sumContext(context), random);
            out.put(i, new CoordinateProofs(range, cancellation, sum));
        }
        return new SpotCheckProof(published.party(), published.round(), out);
    }
}
