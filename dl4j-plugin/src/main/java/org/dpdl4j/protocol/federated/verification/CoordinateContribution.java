package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a party publishes about one coordinate of its vector: the published value, the commitments to its parts,
 * and the proofs that tie them together.
 *
 * @param published            thetaHat, in {@link FixedPoint} units
 * @param valueCommitment      {@code Com(theta)}
 * @param pairwiseCommitments  {@code Com(Delta_kl)} per neighbour l
 * @param noiseCommitment      {@code Com(eta)}
 * @param range                theta in [0, 1]
 * @param cancellation         per neighbour l: {@code Com(Delta_kl) + Com(Delta_lk)} commits to zero
 * @param sum                  {@code Com(theta) + sum_l Com(Delta_kl) + Com(eta) - thetaHat G} commits to zero
 */
public record CoordinateContribution(long published, ECPoint valueCommitment, SortedMap<Integer, ECPoint> pairwiseCommitments,
                                     ECPoint noiseCommitment, RangeProof range, SortedMap<Integer, BlindingProof> cancellation,
                                     BlindingProof sum) {
    public CoordinateContribution {
        Objects.requireNonNull(valueCommitment, "valueCommitment");
        Objects.requireNonNull(noiseCommitment, "noiseCommitment");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(sum, "sum");
        pairwiseCommitments = unmodifiable(pairwiseCommitments);
        cancellation = unmodifiable(cancellation);
    }

    private static <V> SortedMap<Integer, V> unmodifiable(Map<Integer, V> map) {
        return java.util.Collections.unmodifiableSortedMap(new TreeMap<>(map));
    }

    /**
     * The point the sum proof is about: {@code Com(theta) + sum_l Com(Delta_kl) + Com(eta) - thetaHat G}, which is
     * {@code rH} for the sum r of the blindings exactly when the published value is the sum of the committed parts.
     */
    public ECPoint sumStatement(PedersenGroup group) {
        return sumStatement(group, published, valueCommitment, pairwiseCommitments.values(), noiseCommitment);
    }

    static ECPoint sumStatement(PedersenGroup group, long published, ECPoint valueCommitment,
                                java.util.Collection<ECPoint> pairwiseCommitments, ECPoint noiseCommitment) {
        ECPoint total = valueCommitment.add(noiseCommitment);
        for (ECPoint pairwise : pairwiseCommitments) {
            total = total.add(pairwise);
        }
        return total.subtract(group.g().multiply(FixedPoint.toScalar(published, group))).normalize();
    }

    /** Bytes in a fixed-length encoding: the published value, the points, and the proofs. */
    public int encodedBytes() {
        return Long.BYTES + (2 + pairwiseCommitments.size()) * PedersenGroup.POINT_BYTES + range.encodedBytes()
                + (cancellation.size() + 1) * BlindingProof.ENCODED_BYTES;
    }
}
