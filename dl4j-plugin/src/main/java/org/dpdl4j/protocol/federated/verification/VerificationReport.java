package org.dpdl4j.protocol.federated.verification;

import org.dpdl4j.graph.Edge;

import java.math.BigInteger;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The verifier's findings on all parties of one round.
 *
 * <p>Who is named: every party whose own proofs fail, that dropped out, or that did not open its term with a
 * neighbour that dropped out. An edge whose two ends both fail their cancellation proofs is
 * listed in {@link #disputedEdges()}: when one end commits to a term that does not cancel, the honest end cannot prove
 * cancellation either, and the public record alone does not say which of the two deviated. (Attributing a disputed
 * edge needs an {@link EdgeAgreement} signed by both ends, given to the verifier through {@link EdgeAgreements}: then
 * only the end that published something other than it signed is named, and the edge is not disputed.)
 *
 * @param round         the round checked
 * @param verdicts      one per party, in party order
 * @param disputedEdges edges whose two ends both failed to prove that their terms cancel
 * @param aggregate     per coordinate, in {@link FixedPoint} units and exact (a big integer: nothing keeps what a
 *                      cheater publishes within a long): the sum of the published values of the parties
 *                      that published a well-formed contribution, minus the opened terms towards those that dropped
 *                      out. When no party failed but for dropping out, the pairwise terms cancel in it and it is
 *                      exactly {@code sum_k (theta_k + eta_k)} over the parties that published
 */
public record VerificationReport(long round, List<PartyVerdict> verdicts, List<Edge> disputedEdges, BigInteger[] aggregate) {
    public VerificationReport {
        verdicts = List.copyOf(verdicts);
        disputedEdges = List.copyOf(disputedEdges);
        aggregate = aggregate.clone();
    }

    /** The parties that dropped out. */
    public SortedSet<Integer> droppedOut() {
        return verdicts.stream().filter(v -> v.failures().contains(VerificationFailure.DROPPED_OUT)).map(PartyVerdict::party)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The average of theta_k + eta_k over the parties in {@link #aggregate} (those that published a well-formed
     * contribution), in real units; unbiased for the average of their theta when no party failed but for dropping out.
     */
    public double[] average() {
        long published = verdicts.stream().filter(v -> !v.failures().contains(VerificationFailure.DROPPED_OUT)
                && !v.failures().contains(VerificationFailure.MALFORMED)).count();
        return java.util.Arrays.stream(aggregate).mapToDouble(a -> a.doubleValue() / FixedPoint.ONE / published).toArray();
    }

    /** Whether every party passed. */
    public boolean allPassed() {
        return verdicts.stream().allMatch(PartyVerdict::passed);
    }

    /** The parties that failed some check (dropping out included), in order. */
    public SortedSet<Integer> failedParties() {
        return verdicts.stream().filter(v -> !v.passed()).map(PartyVerdict::party).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The verdict on {@code party}. */
    public PartyVerdict verdict(int party) {
        return verdicts.get(party);
    }

    @Override
    public BigInteger[] aggregate() {
        return aggregate.clone();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("round ").append(round).append(allPassed() ? ": every party passed" : ": parties "
                + failedParties() + " failed");
        for (PartyVerdict v : verdicts) {
            if (!v.passed()) {
                out.append("\n  ").append(v);
            }
        }
        if (!disputedEdges.isEmpty()) {
            out.append("\n  disputed edges (one of the two ends deviated): ").append(disputedEdges);
        }
        return out.toString();
    }
}
