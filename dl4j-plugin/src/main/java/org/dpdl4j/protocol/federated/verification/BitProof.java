package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * A proof that a commitment {@code C = bG + rH} commits to a bit, b in {0, 1}: the OR (Cramer, Damgard and
 * Schoenmakers) of two Schnorr proofs on H, "C = rH" or "C - G = rH". The prover answers the true branch honestly and
 * simulates the other with a challenge it picks itself; the Fiat-Shamir challenge c fixes only their sum, so the
 * verifier cannot tell which branch is real.
 *
 * <p>Compact form (c0, c1, s0, s1): the verifier recomputes {@code A_i = s_i H - c_i Y_i} for {@code Y_0 = C},
 * {@code Y_1 = C - G} and checks {@code c0 + c1 = hash(context, C, A_0, A_1)}. A commitment to anything but 0 or 1
 * yields a proof that does not verify.
 *
 * @param challengeZero c0, the challenge of the branch b = 0
 * @param challengeOne  c1, the challenge of the branch b = 1
 * @param responseZero  s0
 * @param responseOne   s1
 */
public record BitProof(BigInteger challengeZero, BigInteger challengeOne, BigInteger responseZero, BigInteger responseOne) {
    /** Bytes of the proof in a fixed-length encoding: four scalars. */
    public static final int ENCODED_BYTES = 4 * PedersenGroup.SCALAR_BYTES;

    public BitProof {
        Objects.requireNonNull(challengeZero, "challengeZero");
        Objects.requireNonNull(challengeOne, "challengeOne");
        Objects.requireNonNull(responseZero, "responseZero");
        Objects.requireNonNull(responseOne, "responseOne");
    }

    /** Proves that {@code commitment = bit * G + blinding * H} with bit in {0, 1}, at {@code context}. */
    public static BitProof prove(PedersenGroup group, ECPoint commitment, boolean bit, BigInteger blinding, ProofContext context,
                                 SecureRandom random) {
        ECPoint[] statements = statements(group, commitment);
        int real = bit ? 1 : 0;
        int simulated = 1 - real;
        BigInteger[] challenges = new BigInteger[2];
        BigInteger[] responses = new BigInteger[2];
        ECPoint[] announcements = new ECPoint[2];
        // the simulated branch: pick its challenge and response, solve for its announcement
        challenges[simulated] = group.randomScalar(random);
        responses[simulated] = group.randomScalar(random);
        announcements[simulated] = announcement(group, statements[simulated], challenges[simulated], responses[simulated]);
        BigInteger nonce = group.randomScalar(random);
        announcements[real] = group.h().multiply(nonce).normalize();
        BigInteger c = challenge(group, commitment, announcements, context);
        challenges[real] = group.reduce(c.subtract(challenges[simulated]));
        responses[real] = group.reduce(nonce.add(challenges[real].multiply(blinding)));
        return new BitProof(challenges[0], challenges[1], responses[0], responses[1]);
    }

    /** Whether this proves that {@code commitment} commits to 0 or 1, at {@code context}. */
    public boolean verify(PedersenGroup group, ECPoint commitment, ProofContext context) {
        ECPoint[] statements = statements(group, commitment);
        ECPoint[] announcements = {announcement(group, statements[0], challengeZero, responseZero),
                announcement(group, statements[1], challengeOne, responseOne)};
        BigInteger c = challenge(group, commitment, announcements, context);
        return c.equals(group.reduce(challengeZero.add(challengeOne)));
    }

    private static ECPoint[] statements(PedersenGroup group, ECPoint commitment) {
        return new ECPoint[] {commitment, commitment.subtract(group.g()).normalize()};
    }

    /** {@code sH - cY}, the announcement that makes (c, s) an accepting answer for statement Y. */
    private static ECPoint announcement(PedersenGroup group, ECPoint statement, BigInteger challenge, BigInteger response) {
        return group.sumOfTwoMultiplies(group.h(), response, statement, group.order().subtract(group.reduce(challenge)));
    }

    private static BigInteger challenge(PedersenGroup group, ECPoint commitment, ECPoint[] announcements, ProofContext context) {
        return Transcript.start(group, "BitProof", context).point(commitment).point(announcements[0]).point(announcements[1])
                .challenge();
    }
}
