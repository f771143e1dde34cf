package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * A proof that a commitment C commits to an integer in {@code [0, 2^n)}: commitments {@code C_i} to the n bits of the
 * value, a {@link BitProof} for each, and the homomorphic identity {@code sum_i 2^i C_i = C}, which the verifier
 * checks itself. The prover picks the bits' blindings so that they add up ({@code sum_i 2^i r_i = r}).
 *
 * <p>Proving a value outside {@code [0, 2^n)} (its low n bits do not add up to it) yields a proof that does not
 * verify.
 *
 * @param bitCommitments {@code C_0 .. C_{n-1}}, least significant bit first
 * @param bitProofs      one proof per bit commitment
 */
public record BitDecompositionProof(List<ECPoint> bitCommitments, List<BitProof> bitProofs) {
    public BitDecompositionProof {
        bitCommitments = List.copyOf(bitCommitments);
        bitProofs = List.copyOf(bitProofs);
        if (bitCommitments.isEmpty() || bitCommitments.size() != bitProofs.size()) {
            throw new IllegalArgumentException("a bit decomposition needs one proof per bit commitment and at least one bit, got "
                    + bitCommitments.size() + " commitments and " + bitProofs.size() + " proofs");
        }
    }

    /** Proves that {@code Com(value, blinding)} commits to an integer in {@code [0, 2^bits)}, at {@code context}. */
    public static BitDecompositionProof prove(PedersenGroup group, BigInteger value, BigInteger blinding, int bits,
                                              ProofContext context, SecureRandom random) {
        if (bits < 1 || bits > 64) {
            throw new IllegalArgumentException("a bit decomposition takes 1 to 64 bits, got " + bits);
        }
        BigInteger[] blindings = new BigInteger[bits];
        BigInteger rest = blinding;
        for (int i = 1; i < bits; i++) {
            blindings[i] = group.randomScalar(random);
            rest = rest.subtract(blindings[i].shiftLeft(i));
        }
        blindings[0] = group.reduce(rest);   // bit 0 has weight 1: it absorbs what the others leave over
        List<ECPoint> commitments = new ArrayList<>(bits);
        List<BitProof> proofs = new ArrayList<>(bits);
        for (int i = 0; i < bits; i++) {
            boolean bit = value.testBit(i);
            ECPoint commitment = group.commit(bit ? BigInteger.ONE : BigInteger.ZERO, blindings[i]);
            commitments.add(commitment);
            proofs.add(BitProof.prove(group, commitment, bit, blindings[i], bitContext(context, i), random));
        }
        return new BitDecompositionProof(commitments, proofs);
    }

    /** Whether this proves that {@code commitment} commits to an integer in {@code [0, 2^bits)}, at {@code context}. */
    public boolean verify(PedersenGroup group, ECPoint commitment, int bits, ProofContext context) {
        if (bitCommitments.size() != bits || !bitCommitments.stream().allMatch(group::isGroupElement)) {
            return false;
        }
        ECPoint recombined = group.identity();
        for (int i = bits - 1; i >= 0; i--) {   // Horner: sum_i 2^i C_i
            recombined = recombined.twice().add(bitCommitments.get(i));
        }
        if (!recombined.normalize().equals(commitment.normalize())) {
            return false;
        }
        for (int i = 0; i < bits; i++) {
            if (!bitProofs.get(i).verify(group, bitCommitments.get(i), bitContext(context, i))) {
                return false;
            }
        }
        return true;
    }

    /** Bytes in a fixed-length encoding: a compressed point and a bit proof per bit. */
    public int encodedBytes() {
        return bitCommitments.size() * (PedersenGroup.POINT_BYTES + BitProof.ENCODED_BYTES);
    }

    private static ProofContext bitContext(ProofContext context, int bit) {
        return context.about("bit=" + bit);
    }
}
