package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything party k publishes in one round of verifiable GOPA: per coordinate, the value
 * {@code thetaHat_k = theta_k + sum_l Delta_kl + eta_k}, Pedersen commitments to {@code theta_k}, to each
 * {@code Delta_kl} and to {@code eta_k}, and non-interactive proofs that
 * <ul>
 *   <li>{@code theta_k} lies in [0, 1] ({@link RangeProof});</li>
 *   <li>{@code Delta_kl = -Delta_lk} for every neighbour l ({@link BlindingProof} on the sum of the two ends'
 *       commitments);</li>
 *   <li>the published value is the sum of the committed parts ({@link BlindingProof} on
 *       {@link CoordinateContribution#sumStatement}).</li>
 * </ul>
 * Every proof's challenge hashes the round, the party, the coordinate and the statement ({@link ProofContext}).
 * Nothing here says how {@code eta_k} or {@code Delta_kl} were drawn: see the package documentation.
 *
 * @param party       k, the publishing party
 * @param round       the round the contribution is for
 * @param coordinates one entry per coordinate of the vector
 */
public record PartyContribution(int party, long round, List<CoordinateContribution> coordinates) {
    /** The public upper bound of theta in fixed point: theta in [0, 1] is the integer in [0, 2^16]. */
    public static final long VALUE_UPPER_BOUND = FixedPoint.ONE;

    public PartyContribution {
        coordinates = List.copyOf(coordinates);
    }

    /**
     * Commits to party k's secrets and proves the three properties, for {@code round}.
     *
     * @param random the source of nonces and blindings: a {@link SecureRandom} from the platform; seed one only where a
     *               test needs repeatable proofs
     * @throws IllegalArgumentException if a value lies outside [0, 1]
     * @throws ArithmeticException      if a published value would overflow a long (parts far beyond the fixed-point range)
     */
    public static PartyContribution prove(PedersenGroup group, int party, long round, PartySecrets secrets, SecureRandom random) {
        Objects.requireNonNull(secrets, "secrets");
        for (int i = 0; i < secrets.dimension(); i++) {
            long value = secrets.values()[i];
            if (value < 0 || value > VALUE_UPPER_BOUND) {
                throw new IllegalArgumentException("party " + party + "'s coordinate " + i + " is " + FixedPoint.decode(value)
                        + ", outside [0, 1]: no valid range proof exists; clip the parameters before committing");
            }
        }
        return proveAsIs(group, party, round, secrets, random);
    }

    /**
     * What {@link #prove} publishes, without its check that the values are in range: a false statement gives proofs
     * that do not verify. Package-private, for the tests that play a cheating party.
     */
    static PartyContribution proveAsIs(PedersenGroup group, int party, long round, PartySecrets secrets, SecureRandom random) {
        long[] published = secrets.published();
        List<CoordinateContribution> coordinates = new ArrayList<>(secrets.dimension());
        for (int i = 0; i < secrets.dimension(); i++) {
            long value = secrets.values()[i];
            ProofContext context = ProofContext.of(round, party, i);
            BigInteger valueBlinding = secrets.valueBlindings()[i];
            BigInteger noiseBlinding = secrets.noiseBlindings()[i];
            ECPoint valueCommitment = group.commit(FixedPoint.toScalar(value, group), valueBlinding);
            ECPoint noiseCommitment = group.commit(FixedPoint.toScalar(secrets.privateNoise()[i], group), noiseBlinding);
            BigInteger sumBlinding = valueBlinding.add(noiseBlinding);
            SortedMap<Integer, ECPoint> pairwiseCommitments = new TreeMap<>();
            SortedMap<Integer, BlindingProof> cancellation = new TreeMap<>();
            for (PairwiseTerm term : secrets.pairwise()) {
                BigInteger own = term.ownBlindings()[i];
                BigInteger peer = term.peerBlindings()[i];
                ECPoint mine = group.commit(FixedPoint.toScalar(term.values()[i], group), own);
                // what the peer publishes if it is honest: a commitment to -Delta_kl with its blinding
                ECPoint theirs = group.commit(FixedPoint.toScalar(-term.values()[i], group), peer);
                pairwiseCommitments.put(term.peer(), mine);
                cancellation.put(term.peer(), BlindingProof.prove(group, mine.add(theirs).normalize(), own.add(peer),
                        cancellationContext(context, term.peer()), random));
                sumBlinding = sumBlinding.add(own);
            }
            RangeProof range = RangeProof.prove(group, value, valueBlinding, VALUE_UPPER_BOUND, context, random);
            ECPoint sumStatement = CoordinateContribution.sumStatement(group, published[i], valueCommitment,
                    pairwiseCommitments.values(), noiseCommitment);
            BlindingProof sum = BlindingProof.prove(group, sumStatement, sumBlinding, sumContext(context), random);
            coordinates.add(new CoordinateContribution(published[i], valueCommitment, pairwiseCommitments, noiseCommitment, range,
                    cancellation, sum));
        }
        return new PartyContribution(party, round, coordinates);
    }

    /** The published vector thetaHat_k in real units. */
    public double[] publishedValues() {
        return coordinates.stream().mapToDouble(c -> FixedPoint.decode(c.published())).toArray();
    }

    /** Bytes in a fixed-length encoding of all coordinates (party and round excluded). */
    public int encodedBytes() {
        return coordinates.stream().mapToInt(CoordinateContribution::encodedBytes).sum();
    }

    static ProofContext cancellationContext(ProofContext coordinate, int peer) {
        return coordinate.about("pairwise:peer=" + peer);
    }

    static ProofContext sumContext(ProofContext coordinate) {
        return coordinate.about("published-sum");
    }
}
