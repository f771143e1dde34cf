package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * A Schnorr proof of knowledge of r with {@code P = rH}: that the point P, a combination of commitments, is a
 * commitment to zero. Since nobody knows log_G H, a prover who knows such an r has shown that the committed values
 * in P sum to 0 (mod q). Verifiable GOPA uses it twice: for an edge, {@code P = Com(Delta_kl) + Com(Delta_lk)} (the
 * pairwise terms cancel), and for a coordinate, {@code P = Com(theta) + sum Com(Delta) + Com(eta) - thetaHat G} (the
 * published value is the sum of the committed parts).
 *
 * <p>Compact form (c, s): the prover picks a nonce t, sets {@code A = tH}, {@code c = hash(context, P, A)},
 * {@code s = t + c r}; the verifier recomputes {@code A = sH - cP} and checks the hash. Proving a false statement
 * (a P that is not rH) yields a proof that does not verify.
 *
 * @param challenge c
 * @param response  s
 */
public record BlindingProof(BigInteger challenge, BigInteger response) {
    /** Bytes of the proof in a fixed-length encoding: two scalars. */
    public static final int ENCODED_BYTES = 2 * PedersenGroup.SCALAR_BYTES;

    public BlindingProof {
        Objects.requireNonNull(challenge, "challenge");
        Objects.requireNonNull(response, "response");
    }

    /**
     * Proves knowledge of {@code blinding} with {@code statement = blinding * H} at {@code context}.
     *
     * @param random the nonce's source; a {@link SecureRandom} seeded by the caller makes proofs repeatable (tests only:
     *               a nonce used twice with two challenges reveals the blinding)
     */
    public static BlindingProof prove(PedersenGroup group, ECPoint statement, BigInteger blinding, ProofContext context,
                                      SecureRandom random) {
        BigInteger nonce = group.randomScalar(random);
        ECPoint announcement = group.h().multiply(nonce).normalize();
        BigInteger c = challenge(group, statement, announcement, context);
        return new BlindingProof(c, group.reduce(nonce.add(c.multiply(blinding))));
    }

    /** Whether this proves that {@code statement} is a multiple of H known to the prover, at {@code context}. */
    public boolean verify(PedersenGroup group, ECPoint statement, ProofContext context) {
        ECPoint announcement = group.sumOfTwoMultiplies(group.h(), response, statement, group.order().subtract(group.reduce(challenge)));
        return challenge(group, statement, announcement, context).equals(challenge);
    }

    private static BigInteger challenge(PedersenGroup group, ECPoint statement, ECPoint announcement, ProofContext context) {
        return Transcript.start(group, "BlindingProof", context).point(statement).point(announcement).challenge();
    }
}
