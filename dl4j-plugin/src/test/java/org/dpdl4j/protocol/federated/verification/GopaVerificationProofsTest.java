package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.security.SecureRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The group and each proof on its own: completeness, soundness against false statements, and domain separation. */
class GopaVerificationProofsTest {
    private static final PedersenGroup GROUP = PedersenGroup.standard();
    private static final ProofContext HERE = ProofContext.of(7, 2, 1);

    private final SecureRandom random = VerifiableRound.repeatable(11);

    @Test
    void theSecondGeneratorIsAFixedPointOfTheGroupOtherThanG() {
        ECPoint h = GROUP.h();
        assertTrue(GROUP.isGroupElement(h));
        assertNotEquals(GROUP.g(), h);
        assertTrue(h.multiply(GROUP.order()).isInfinity(), "H has order q");
        assertEquals(h, PedersenGroup.standard().h());
    }

    @Test
    void commitmentsAreAdditivelyHomomorphic() {
        BigInteger a = BigInteger.valueOf(5);
        BigInteger b = BigInteger.valueOf(-9);
        BigInteger r = GROUP.randomScalar(random);
        BigInteger s = GROUP.randomScalar(random);
        assertEquals(GROUP.commit(a.add(b), r.add(s)), GROUP.commit(a, r).add(GROUP.commit(b, s)).normalize());
        assertNotEquals(GROUP.commit(a, r), GROUP.commit(a, s), "hiding: the blinding changes the commitment");
    }

    @Test
    void aBlindingProofVerifiesOnlyForItsStatementAndContext() {
        BigInteger r = GROUP.randomScalar(random);
        ECPoint zero = GROUP.commit(BigInteger.ZERO, r);
        BlindingProof proof = BlindingProof.prove(GROUP, zero, r, HERE, random);
        assertTrue(proof.verify(GROUP, zero, HERE));
        assertFalse(proof.verify(GROUP, GROUP.commit(BigInteger.ONE, r), HERE), "another statement");
        assertFalse(proof.verify(GROUP, zero, ProofContext.of(8, 2, 1)), "another round");
        assertFalse(proof.verify(GROUP, zero, ProofContext.of(7, 3, 1)), "another party");
        assertFalse(proof.verify(GROUP, zero, ProofContext.of(7, 2, 0)), "another coordinate");
        assertFalse(proof.verify(GROUP, zero, HERE.about("pairwise:peer=4")), "another statement name");
        assertFalse(new BlindingProof(proof.challenge(), proof.response().add(BigInteger.ONE)).verify(GROUP, zero, HERE), "tampered");
    }

    @Test
    void aBlindingProofOfANonZeroCommitmentDoesNotVerify() {
        BigInteger r = GROUP.randomScalar(random);
        ECPoint one = GROUP.commit(BigInteger.ONE, r);
        assertFalse(BlindingProof.prove(GROUP, one, r, HERE, random).verify(GROUP, one, HERE));
    }

    @Test
    void bitProofsAcceptZeroAndOneOnly() {
        for (int b = 0; b <= 1; b++) {
            BigInteger r = GROUP.randomScalar(random);
            ECPoint c = GROUP.commit(BigInteger.valueOf(b), r);
            BitProof proof = BitProof.prove(GROUP, c, b == 1, r, HERE, random);
            assertTrue(proof.verify(GROUP, c, HERE), "bit " + b);
            assertFalse(proof.verify(GROUP, c, HERE.about("bit=3")), "bit " + b + " elsewhere");
            assertFalse(new BitProof(proof.challengeOne(), proof.challengeZero(), proof.responseZero(), proof.responseOne())
                    .verify(GROUP, c, HERE), "swapped challenges");
        }
        BigInteger r = GROUP.randomScalar(random);
        ECPoint two = GROUP.commit(BigInteger.TWO, r);
        assertFalse(BitProof.prove(GROUP, two, true, r, HERE, random).verify(GROUP, two, HERE), "2 claimed as 1");
        assertFalse(BitProof.prove(GROUP, two, false, r, HERE, random).verify(GROUP, two, HERE), "2 claimed as 0");
    }

    @Test
    void rangeProofsAcceptExactlyZeroToOne() {
        long bound = FixedPoint.ONE;
        for (long m : new long[] {0, 1, bound / 2, bound - 1, bound}) {
            assertTrue(rangeProofVerifies(m, bound), "m = " + m);
        }
        for (long m : new long[] {-1, bound + 1, 2 * bound, 3 * bound / 2, -bound}) {
            assertFalse(rangeProofVerifies(m, bound), "m = " + m);
        }
        assertEquals(2 * 17 * (33 + 128), RangeProof.prove(GROUP, 5, BigInteger.ONE, bound, HERE, random).encodedBytes());
    }

    @Test
    void aRangeProofDoesNotVerifyForAnotherCommitmentOrPlace() {
        BigInteger r = GROUP.randomScalar(random);
        ECPoint c = GROUP.commit(BigInteger.valueOf(100), r);
        RangeProof proof = RangeProof.prove(GROUP, 100, r, FixedPoint.ONE, HERE, random);
        assertTrue(proof.verify(GROUP, c, FixedPoint.ONE, HERE));
        assertFalse(proof.verify(GROUP, GROUP.commit(BigInteger.valueOf(101), r), FixedPoint.ONE, HERE));
        assertFalse(proof.verify(GROUP, c, FixedPoint.ONE, ProofContext.of(7, 3, 1)));
    }

    private boolean rangeProofVerifies(long m, long bound) {
        BigInteger r = GROUP.randomScalar(random);
        ECPoint c = GROUP.commit(FixedPoint.toScalar(m, GROUP), r);
        return RangeProof.prove(GROUP, m, r, bound, HERE, random).verify(GROUP, c, bound, HERE);
    }
}
