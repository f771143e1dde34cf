package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.util.List;

/**
 * A party's published commitments to the secret bits of its {@link BinomialNoise} for one coordinate, each with a
 * {@link BitProof}; published before the public coins are drawn.
 *
 * @param bitCommitments Com(b_j)
 * @param bitProofs      one proof per commitment that it commits to 0 or 1
 */
public record NoiseBits(List<ECPoint> bitCommitments, List<BitProof> bitProofs) {
    public NoiseBits {
        bitCommitments = List.copyOf(bitCommitments);
        bitProofs = List.copyOf(bitProofs);
        if (bitCommitments.size() != bitProofs.size()) {
            throw new IllegalArgumentException("noise bits need one proof per commitment, got " + bitCommitments.size()
                    + " commitments and " + bitProofs.size() + " proofs");
        }
    }

    /** Bytes in a fixed-length encoding: a point and a bit proof per bit. */
    public int encodedBytes() {
        return bitCommitments.size() * (PedersenGroup.POINT_BYTES + BitProof.ENCODED_BYTES);
    }
}
