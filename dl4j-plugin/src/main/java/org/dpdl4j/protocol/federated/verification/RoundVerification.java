package org.dpdl4j.protocol.federated.verification;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The outcome of one spot-checked round of {@link SpotCheckedGopa}.
 *
 * @param round         the round
 * @param checked       the coordinates every party proved (all p, or k chosen after the commitments)
 * @param verdicts      one per party, in party order: the proofs' findings, or a missing opening
 * @param lost          the parties taken out of the round: failed a check or dropped out
 * @param survivors     the parties whose values the average is over
 * @param average       without lost parties null (average the parties' messages as unverified GOPA does); else the
 *                      survivors' mean in value units, from the exact aggregate less the opened terms (null when no
 *                      party survived)
 * @param commitSeconds per party: committing and signing its edges' agreements
 * @param proveSeconds  per party: proving the checked coordinates
 * @param verifySeconds per party: checking its commitments' shape and its proofs
 */
public record RoundVerification(long round, int[] checked, List<PartyVerdict> verdicts, SortedSet<Integer> lost,
                                SortedSet<Integer> survivors, double[] average, double[] commitSeconds, double[] proveSeconds,
                                double[] verifySeconds) {
    public RoundVerification {
        checked = checked.clone();
        verdicts = List.copyOf(verdicts);
        lost = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(lost));
        survivors = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(survivors));
        average = average == null ? null : average.clone();
        commitSeconds = commitSeconds.clone();
        proveSeconds = proveSeconds.clone();
        verifySeconds = verifySeconds.clone();
    }

    /** Whether every party passed and none dropped out. */
    public boolean allPassed() {
        return lost.isEmpty();
    }

    @Override
    public double[] average() {
        return average == null ? null : average.clone();
    }

    @Override
    public int[] checked() {
        return checked.clone();
    }
}
