package org.dpdl4j.protocol.federated.verification;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A party's proofs about one challenged coordinate of a spot-checked round, about the commitments it published before
 * the challenge ({@link PartyCommitments}).
 *
 * @param range        theta in [0, 1]
 * @param cancellation per neighbour l: {@code Com(Delta_kl) + Com(Delta_lk)} commits to zero
 * @param sum          the published value is the sum of the committed parts
 */
public record CoordinateProofs(RangeProof range, SortedMap<Integer, BlindingProof> cancellation, BlindingProof sum) {
    public CoordinateProofs {
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(sum, "sum");
        cancellation = Collections.unmodifiableSortedMap(new TreeMap<>(cancellation));
    }
}
