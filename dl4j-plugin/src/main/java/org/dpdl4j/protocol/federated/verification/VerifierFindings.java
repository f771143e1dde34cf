package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;
import org.dpdl4j.graph.Edge;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a verifier found so far in one round: failures and reasons per party, and the edge ends whose cancellation
 * failed (both ends of an edge failing at one coordinate make it disputed). Shared by {@link GopaVerifier} and
 * {@link SpotCheckVerifier}.
 */
final class VerifierFindings {
    private final List<Set<VerificationFailure>> failures = new ArrayList<>();
    private final List<List<String>> reasons = new ArrayList<>();
    private final Set<EdgeEnd> failedEnds = new HashSet<>();

    VerifierFindings(int parties) {
        for (int k = 0; k < parties; k++) {
            failures.add(EnumSet.noneOf(VerificationFailure.class));
            reasons.add(new ArrayList<>());
        }
    }

    void fail(int party, VerificationFailure failure, String reason) {
        failures.get(party).add(failure);
        reasons.get(party).add(reason);
    }

    boolean failed(int party) {
        return !failures.get(party).isEmpty();
    }

    /**
     * k's proof that its term with l cancels failed at coordinate i. Without an agreement signed by both, k is named
     * and the edge end recorded (both ends failing make the edge disputed). With one, k is named only if it published
     * something other than it signed, or if both published as signed (then both signed a pair that does not cancel,
     * or k's proof is forged); if only l deviated, l is named at its own check and k is not.
     */
    void cancellationFailed(long round, int dimension, int k, int l, int i, ECPoint mine, ECPoint theirs, EdgeAgreements agreements) {
        Edge edge = Edge.between(k, l);
        EdgeAgreement agreed = agreements.agreedOn(round, edge, dimension);
        if (agreed == null) {
            fail(k, VerificationFailure.PAIRWISE_NOT_CANCELLING, "coordinate " + i + ", edge " + edge + ": cancellation proof rejected");
            failedEnds.add(new EdgeEnd(k, l, i));
            return;
        }
        boolean mineAsAgreed = agreed.commitmentsOf(k).get(i).normalize().equals(mine.normalize());
        boolean theirsAsAgreed = agreed.commitmentsOf(l).get(i).normalize().equals(theirs.normalize());
        if (!mineAsAgreed) {
            fail(k, VerificationFailure.PAIRWISE_NOT_CANCELLING, "coordinate " + i + ", edge " + edge
                    + ": published a pairwise commitment other than the one it signed with party " + l);
        } else if (theirsAsAgreed) {
            fail(k, VerificationFailure.PAIRWISE_NOT_CANCELLING, "coordinate " + i + ", edge " + edge
                    + ": cancellation proof rejected although both ends published what they signed");
        }
    }

    VerificationReport report(long round, BigInteger[] aggregate) {
        Set<Edge> disputed = failedEnds.stream()
                .filter(e -> failedEnds.contains(new EdgeEnd(e.peer(), e.party(), e.coordinate())))
                .map(e -> Edge.between(e.party(), e.peer())).collect(Collectors.toCollection(TreeSet::new));
        List<PartyVerdict> verdicts = new ArrayList<>(failures.size());
        for (int k = 0; k < failures.size(); k++) {
            verdicts.add(new PartyVerdict(k, failures.get(k), reasons.get(k)));
        }
        return new VerificationReport(round, verdicts, new ArrayList<>(disputed), aggregate);
    }

    /** Party's end of its edge to peer, at one coordinate. */
    private record EdgeEnd(int party, int peer, int coordinate) {
    }
}
