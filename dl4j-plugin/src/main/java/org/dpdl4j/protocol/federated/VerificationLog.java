package org.dpdl4j.protocol.federated;

import org.dpdl4j.protocol.federated.verification.PartyVerdict;
import org.dpdl4j.protocol.federated.verification.RoundVerification;
import org.dpdl4j.protocol.federated.verification.VerificationFailure;

import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The record of a verified GOPA run's rounds: one row per round and party for {@code verification.csv}, and the
 * line the summary shows. It covers the rounds this process ran (a resumed run's file starts at the resume).
 */
public final class VerificationLog {
    /** The file name among the run's reports. */
    public static final String FILE_NAME = "verification.csv";
    private static final String HEADER = "round,party,verdict,failures,coordinates_checked,commit_seconds,prove_seconds,verify_seconds";

    private final int parties;
    private final StringBuilder rows = new StringBuilder(HEADER).append('\n');
    private final SortedMap<Integer, Integer> lostRounds = new TreeMap<>();
    private long rounds;
    private long roundsWithLosses;
    private double proveSeconds;
    private double verifySeconds;

    VerificationLog(int parties) {
        this.parties = parties;
    }

    /** Records a round; its index is 0-based, its row says round index + 1. */
    void add(RoundVerification r) {
        rounds++;
        if (!r.lost().isEmpty()) {
            roundsWithLosses++;
        }
        for (PartyVerdict v : r.verdicts()) {
            int k = v.party();
            String verdict = v.passed() ? "passed" : v.failures().contains(VerificationFailure.DROPPED_OUT) ? "dropped-out" : "excluded";
            if (!v.passed()) {
                lostRounds.merge(k, 1, Integer::sum);
            }
            String failures = v.failures().stream().map(f -> f.name().toLowerCase(Locale.ROOT).replace('_', '-')).sorted()
                    .collect(Collectors.joining(";"));
            rows.append(String.format(Locale.ROOT, "%d,%d,%s,%s,%d,%.6f,%.6f,%.6f%n", r.round() + 1, k, verdict, failures,
                    r.checked().length, r.commitSeconds()[k], r.proveSeconds()[k], r.verifySeconds()[k]));
            proveSeconds += r.commitSeconds()[k] + r.proveSeconds()[k];
            verifySeconds += r.verifySeconds()[k];
        }
    }

    /** verification.csv so far. */
    public String csv() {
        return rows.toString();
    }

    /** Rounds recorded. */
    public long rounds() {
        return rounds;
    }

    /** Per party, the rounds it was excluded from or dropped out of. */
    public SortedMap<Integer, Integer> lostRounds() {
        return java.util.Collections.unmodifiableSortedMap(lostRounds);
    }

    /** One line: what was checked and who was lost. */
    String summary(int coordinatesPerRound, long dimension) {
        long k = Math.min(coordinatesPerRound, dimension);
        double perParty = rounds == 0 ? 0 : 1.0 / (rounds * parties);
        return String.format(Locale.ROOT, "%d rounds, %d of %d coordinates proven per party and round; %s; %.3f s to commit"
                        + " and prove, %.3f s to verify, per party and round (%s)", rounds, k, dimension,
                lostRounds.isEmpty() ? "every party passed every round"
                        : roundsWithLosses + " rounds lost parties " + lostRounds + " (party=rounds)",
                proveSeconds * perParty, verifySeconds * perParty, FILE_NAME);
    }
}
