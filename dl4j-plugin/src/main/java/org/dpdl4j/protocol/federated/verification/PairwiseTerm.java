package org.dpdl4j.protocol.federated.verification;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * One end's secret share of an edge's pairwise noise: the fixed-point terms {@code Delta_kl} it adds (one per
 * coordinate), the blindings of its commitments to them, and the blindings its peer uses for {@code Delta_lk}. The two
 * ends exchange blindings over their private channel, as they already share the seed of the noise, so that each can
 * prove that the two commitments add up to a commitment to zero.
 *
 * @param peer           the other end l of the edge
 * @param values         {@code Delta_kl} per coordinate, in {@link FixedPoint} units
 * @param ownBlindings   blindings of this end's commitments {@code Com(Delta_kl)}
 * @param peerBlindings  blindings of the peer's commitments {@code Com(Delta_lk)}
 */
public record PairwiseTerm(int peer, long[] values, BigInteger[] ownBlindings, BigInteger[] peerBlindings) {
    public PairwiseTerm {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(ownBlindings, "ownBlindings");
        Objects.requireNonNull(peerBlindings, "peerBlindings");
        if (ownBlindings.length != values.length || peerBlindings.length != values.length) {
            throw new IllegalArgumentException("a pairwise term needs one blinding per coordinate on each end, got " + values.length
                    + " values, " + ownBlindings.length + " own and " + peerBlindings.length + " peer blindings");
        }
    }

    /**
     * What the ends {@code first} and {@code second} of an edge agree on: {@code first} adds {@code delta} and
     * {@code second} adds its exact negation (negated after encoding, so that the integers cancel), each with fresh
     * blindings that both know.
     *
     * @return the term of {@code first} (index 0) and of {@code second} (index 1)
     */
    public static PairwiseTerm[] agree(int first, int second, double[] delta, PedersenGroup group, SecureRandom random) {
        if (first == second) {
            throw new IllegalArgumentException("an edge joins two different parties, got " + first + " twice");
        }
        long[] forward = new long[delta.length];
        long[] backward = new long[delta.length];
        BigInteger[] firstBlindings = new BigInteger[delta.length];
        BigInteger[] secondBlindings = new BigInteger[delta.length];
        for (int i = 0; i < delta.length; i++) {
            forward[i] = FixedPoint.encode(delta[i]);
            backward[i] = -forward[i];
            firstBlindings[i] = group.randomScalar(random);
            secondBlindings[i] = group.randomScalar(random);
        }
        return new PairwiseTerm[] {new PairwiseTerm(second, forward, firstBlindings, secondBlindings),
                new PairwiseTerm(first, backward, secondBlindings, firstBlindings)};
    }
}
