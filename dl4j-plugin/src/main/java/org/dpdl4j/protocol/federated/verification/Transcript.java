package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The Fiat-Shamir hash that turns the interactive proofs into non-interactive ones: SHA-256 over the protocol's name,
 * the curve and both generators, the kind of proof, its {@link ProofContext}, the statement's points and the
 * prover's first messages, each field length-prefixed so that no two transcripts encode alike. The challenge is the
 * digest mod q (secp256k1's q exceeds 2^256 - 2^129, so the bias is below 2^-127).
 */
final class Transcript {
    /** The protocol's name and version, the first thing every challenge hashes. */
    static final String PROTOCOL = "dpdl4j/verifiable-gopa/v1";

    private final PedersenGroup group;
    private final MessageDigest digest;

    private Transcript(PedersenGroup group, String proofKind, ProofContext context) {
        this.group = group;
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK offers no SHA-256", e);
        }
        label(PROTOCOL);
        label(PedersenGroup.CURVE_NAME);
        point(group.g());
        point(group.h());
        label(proofKind);
        number(context.round());
        number(context.party());
        number(context.coordinate());
        label(context.statement());
    }

    /** A transcript for one proof of kind {@code proofKind} (its class's name) at {@code context}. */
    static Transcript start(PedersenGroup group, String proofKind, ProofContext context) {
        return new Transcript(group, proofKind, context);
    }

    Transcript point(ECPoint p) {
        return bytes(group.pointBytes(p));
    }

    Transcript scalar(BigInteger x) {
        return bytes(group.scalarBytes(x));
    }

    Transcript number(long x) {
        return bytes(ByteBuffer.allocate(Long.BYTES).putLong(x).array());
    }

    Transcript label(String s) {
        return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private Transcript bytes(byte[] b) {
        digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(b.length).array());
        digest.update(b);
        return this;
    }

    /** The challenge in Z_q; the transcript is spent afterwards. */
    BigInteger challenge() {
        return group.reduce(new BigInteger(1, digest.digest()));
    }
}
