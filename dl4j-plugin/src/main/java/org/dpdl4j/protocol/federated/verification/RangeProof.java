package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * A proof that a commitment C commits to an integer m in {@code [0, B]}, for a public bound B &gt;= 1: two
 * {@link BitDecompositionProof}s over {@code n = bitLength(B)} bits, one that m is in {@code [0, 2^n)} and one that
 * {@code B - m} (committed as {@code BG - C}) is. Together they leave only {@code [0, B]}, with no wrap-around mod q
 * since {@code 2^(n+1)} is far below q. For theta in [0, 1] in {@link FixedPoint} (B = 2^16) that is 2 x 17 bits.
 *
 * <p>Proving a value outside {@code [0, B]} yields a proof that does not verify.
 *
 * @param fromBelow m in [0, 2^n)
 * @param fromAbove B - m in [0, 2^n)
 */
public record RangeProof(BitDecompositionProof fromBelow, BitDecompositionProof fromAbove) {
    public RangeProof {
        Objects.requireNonNull(fromBelow, "fromBelow");
        Objects.requireNonNull(fromAbove, "fromAbove");
    }

    /** Proves that {@code Com(value, blinding)} commits to an integer in {@code [0, upperBound]}, at {@code context}. */
    public static RangeProof prove(PedersenGroup group, long value, BigInteger blinding, long upperBound, ProofContext context,
                                   SecureRandom random) {
        int bits = bits(upperBound);
        BigInteger m = group.reduce(BigInteger.valueOf(value));
        BigInteger complement = group.reduce(BigInteger.valueOf(upperBound).subtract(m));
        return new RangeProof(
                BitDecompositionProof.prove(group, m, blinding, bits, context.about("range:below"), random),
                BitDecompositionProof.prove(group, complement, group.reduce(blinding.negate()), bits, context.about("range:above"),
                        random));
    }

    /** Whether this proves that {@code commitment} commits to an integer in {@code [0, upperBound]}, at {@code context}. */
    public boolean verify(PedersenGroup group, ECPoint commitment, long upperBound, ProofContext context) {
        int bits = bits(upperBound);
        ECPoint complement = group.g().multiply(BigInteger.valueOf(upperBound)).subtract(commitment).normalize();
        return fromBelow.verify(group, commitment, bits, context.about("range:below"))
                && fromAbove.verify(group, complement, bits, context.about("range:above"));
    }

    /** Bytes in a fixed-length encoding. */
    public int encodedBytes() {
        return fromBelow.encodedBytes() + fromAbove.encodedBytes();
    }

    private static int bits(long upperBound) {
        if (upperBound < 1 || upperBound > (1L << 62)) {
            throw new IllegalArgumentException("a range proof's upper bound must be in [1, 2^62], got " + upperBound);
        }
        return 64 - Long.numberOfLeadingZeros(upperBound);
    }
}
