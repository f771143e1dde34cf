package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What party k publishes in the commitment phase of a spot-checked round of verifiable GOPA, for every coordinate of
 * its vector: the value {@code thetaHat_k}, and Pedersen commitments to {@code theta_k}, to {@code eta_k} and to each
 * {@code Delta_kl}. No proof yet: the coordinates to prove are drawn from all parties' commitments afterwards
 * ({@link SpotCheck}), so a party cannot know them when it commits.
 *
 * @param party     k
 * @param round     the round
 * @param published thetaHat_k per coordinate, in {@link FixedPoint} units
 * @param values    Com(theta_k) per coordinate
 * @param noise     Com(eta_k) per coordinate
 * @param pairwise  per neighbour l, Com(Delta_kl) per coordinate
 */
public record PartyCommitments(int party, long round, long[] published, List<ECPoint> values, List<ECPoint> noise,
                               SortedMap<Integer, List<ECPoint>> pairwise) {
    public PartyCommitments {
        published = published.clone();
        values = List.copyOf(values);
        noise = List.copyOf(noise);
        SortedMap<Integer, List<ECPoint>> copy = new TreeMap<>();
        for (Map.Entry<Integer, List<ECPoint>> e : pairwise.entrySet()) {
            copy.put(e.getKey(), List.copyOf(e.getValue()));
        }
        pairwise = Collections.unmodifiableSortedMap(copy);
    }

    /** Party k's commitments to its secrets (the blindings are the secrets'). */
    public static PartyCommitments commit(PedersenGroup group, int party, long round, PartySecrets secrets) {
        Objects.requireNonNull(secrets, "secrets");
        int p = secrets.dimension();
        List<ECPoint> values = new ArrayList<>(p);
        List<ECPoint> noise = new ArrayList<>(p);
        for (int i = 0; i < p; i++) {
            values.add(group.commit(FixedPoint.toScalar(secrets.values()[i], group), secrets.valueBlindings()[i]));
            noise.add(group.commit(FixedPoint.toScalar(secrets.privateNoise()[i], group), secrets.noiseBlindings()[i]));
        }
        SortedMap<Integer, List<ECPoint>> pairwise = new TreeMap<>();
        for (PairwiseTerm term : secrets.pairwise()) {
            pairwise.put(term.peer(), termCommitments(group, term));
        }
        return new PartyCommitments(party, round, secrets.published(), values, noise, pairwise);
    }

    /** Com(Delta_kl) per coordinate for one term. */
    static List<ECPoint> termCommitments(PedersenGroup group, PairwiseTerm term) {
        List<ECPoint> out = new ArrayList<>(term.values().length);
        for (int i = 0; i < term.values().length; i++) {
            out.add(group.commit(FixedPoint.toScalar(term.values()[i], group), term.ownBlindings()[i]));
        }
        return out;
    }

    /** The number of coordinates p. */
    public int dimension() {
        return published.length;
    }

    @Override
    public long[] published() {
        return published.clone();
    }

    /** thetaHat_k at coordinate i, in {@link FixedPoint} units. */
    public long publishedAt(int i) {
        return published[i];
    }

    /** The point the sum proof at coordinate i is about (see {@link CoordinateContribution#sumStatement}). */
    public ECPoint sumStatement(PedersenGroup group, int i) {
        List<ECPoint> terms = pairwise.values().stream().map(c -> c.get(i)).toList();
        return CoordinateContribution.sumStatement(group, published[i], values.get(i), terms, noise.get(i));
    }

    /** Feeds everything published into a digest, every field in a fixed-length encoding. */
    void hashInto(MessageDigest digest, PedersenGroup group) {
        java.nio.ByteBuffer header = java.nio.ByteBuffer.allocate(Integer.BYTES + Long.BYTES + 2 * Integer.BYTES);
        digest.update(header.putInt(party).putLong(round).putInt(published.length).putInt(pairwise.size()).array());
        java.nio.ByteBuffer numbers = java.nio.ByteBuffer.allocate(Long.BYTES * published.length);
        for (long v : published) {
            numbers.putLong(v);
        }
        digest.update(numbers.array());
        for (int i = 0; i < published.length; i++) {
            digest.update(group.pointBytes(values.get(i)));
            digest.update(group.pointBytes(noise.get(i)));
        }
        for (Map.Entry<Integer, List<ECPoint>> e : pairwise.entrySet()) {
            digest.update(java.nio.ByteBuffer.allocate(Integer.BYTES).putInt(e.getKey()).array());
            for (ECPoint c : e.getValue()) {
                digest.update(group.pointBytes(c));
            }
        }
    }
}
