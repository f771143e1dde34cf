package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;
import org.dpdl4j.graph.Edge;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Objects;

/**
 * What the two ends of an edge agree to publish in a round, before they publish: the lower end's commitments to
 * {@code Delta_lower,higher} and the higher end's to {@code Delta_higher,lower}, one per coordinate. Each end checks
 * that the pair cancels ({@link #acceptableTo}) before it signs, so an honest party never signs a pair that does not.
 *
 * <p>With the agreement signed by both ({@link SignedEdgeAgreement}), a verifier that finds an edge's terms not
 * cancelling can tell which end published something other than what it signed, instead of naming both.
 *
 * @param round              the round
 * @param edge               the edge {lower, higher}
 * @param lowerCommitments   the lower end's commitments, per coordinate
 * @param higherCommitments  the higher end's commitments, per coordinate
 */
public record EdgeAgreement(long round, Edge edge, List<ECPoint> lowerCommitments, List<ECPoint> higherCommitments) {
    public EdgeAgreement {
        Objects.requireNonNull(edge, "edge");
        lowerCommitments = List.copyOf(lowerCommitments);
        higherCommitments = List.copyOf(higherCommitments);
        if (lowerCommitments.size() != higherCommitments.size() || lowerCommitments.isEmpty()) {
            throw new IllegalArgumentException("an edge agreement needs the same number (>= 1) of commitments from each end, got "
                    + lowerCommitments.size() + " and " + higherCommitments.size());
        }
    }

    /** The agreement of {@code party}'s term with {@code term.peer()}, from party's secrets. */
    public static EdgeAgreement of(PedersenGroup group, long round, int party, PairwiseTerm term) {
        List<ECPoint> mine = commitments(group, term.values(), term.ownBlindings(), false);
        List<ECPoint> theirs = commitments(group, term.values(), term.peerBlindings(), true);
        return party < term.peer() ? new EdgeAgreement(round, new Edge(party, term.peer()), mine, theirs)
                : new EdgeAgreement(round, new Edge(term.peer(), party), theirs, mine);
    }

    private static List<ECPoint> commitments(PedersenGroup group, long[] values, BigInteger[] blindings, boolean negated) {
        ECPoint[] out = new ECPoint[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = group.commit(FixedPoint.toScalar(negated ? -values[i] : values[i], group), blindings[i]);
        }
        return List.of(out);
    }

    /**
     * What end {@code party} checks before it signs, with its own term with the other end: that its side of the
     * agreement commits to its own values with its own blindings, and that each coordinate's two commitments add up
     * to a commitment to zero (with the blindings of both ends).
     */
    public boolean acceptableTo(PedersenGroup group, int party, PairwiseTerm term) {
        List<ECPoint> mine = commitmentsOf(party);
        if (term.peer() != edge.other(party) || term.values().length != mine.size()) {
            return false;
        }
        for (int i = 0; i < mine.size(); i++) {
            if (!mine.get(i).equals(group.commit(FixedPoint.toScalar(term.values()[i], group), term.ownBlindings()[i]))) {
                return false;
            }
            ECPoint sum = lowerCommitments.get(i).add(higherCommitments.get(i)).normalize();
            if (!sum.equals(group.h().multiply(group.reduce(term.ownBlindings()[i].add(term.peerBlindings()[i]))).normalize())) {
                return false;
            }
        }
        return true;
    }

    /** The commitments of {@code party}, one end of the edge. */
    public List<ECPoint> commitmentsOf(int party) {
        if (party == edge.i()) {
            return lowerCommitments;
        }
        if (party == edge.j()) {
            return higherCommitments;
        }
        throw new IllegalArgumentException("party " + party + " is not an end of edge " + edge);
    }

    /** The SHA-256 digest both ends sign, domain-separated from the proofs' transcripts. */
    public byte[] digest(PedersenGroup group) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update((Transcript.PROTOCOL + "/edge-agreement").getBytes(StandardCharsets.UTF_8));
            digest.update(ByteBuffer.allocate(Long.BYTES + 3 * Integer.BYTES).putLong(round).putInt(edge.i()).putInt(edge.j())
                    .putInt(lowerCommitments.size()).array());
            for (int i = 0; i < lowerCommitments.size(); i++) {
                digest.update(group.pointBytes(lowerCommitments.get(i)));
                digest.update(group.pointBytes(higherCommitments.get(i)));
            }
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK offers no SHA-256", e);
        }
    }

    /** Both ends' signatures on this agreement. */
    public SignedEdgeAgreement signedBy(PedersenGroup group, SigningKey lower, SigningKey higher) {
        if (lower.party() != edge.i() || higher.party() != edge.j()) {
            throw new IllegalArgumentException("edge " + edge + " is signed by its ends " + edge.i() + " and " + edge.j()
                    + ", got the keys of " + lower.party() + " and " + higher.party());
        }
        byte[] d = digest(group);
        return new SignedEdgeAgreement(this, lower.sign(d), higher.sign(d));
    }
}
