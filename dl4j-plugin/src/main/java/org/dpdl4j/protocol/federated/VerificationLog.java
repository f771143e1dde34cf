package org.dpdl4j.protocol.federated;

import org.dpdl4j.protocol.federated.verification.PartyVerdict;
import org.dpdl4j.protocol.federated.verification.RoundVerification;
import org.dpdl4j.protocol.federated.verification.VerificationFailure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The record of a verified GOPA run's rounds: one row per round and party for {@code verification.csv}, and the
 * line the summary shows. A checkpoint keeps it ({@link #toArray}, {@link #fromArray}), so a resumed run's file holds
 * every round since the first.
 */
public final class VerificationLog {
    /** The file name among the run's reports. */
    public static final String FILE_NAME = "verification.csv";
    private static final String HEADER = "round,party,verdict,failures,coordinates_checked,commit_seconds,prove_seconds,verify_seconds";
    private static final String[] VERDICTS = {"passed", "dropped-out", "excluded"};
    private static final VerificationFailure[] FAILURES = VerificationFailure.values();

    /** One party's verdict in one round; {@code round} is 1-based, {@code failures} a bit per failure's ordinal. */
    private record Row(long round, int party, int verdict, long failures, int checked, double commit, double prove,
                       double verify) {
        String csv() {
            String names = IntStream.range(0, FAILURES.length).filter(f -> (failures >> f & 1) != 0)
                    .mapToObj(f -> FAILURES[f].name().toLowerCase(Locale.ROOT).replace('_', '-')).sorted()
                    .collect(Collectors.joining(";"));
            return String.format(Locale.ROOT, "%d,%d,%s,%s,%d,%.6f,%.6f,%.6f%n", round, party, VERDICTS[verdict], names,
                    checked, commit, prove, verify);
        }
    }

    private final int parties;
    private final List<Row> rows = new ArrayList<>();
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
        List<Row> round = new ArrayList<>();
        for (PartyVerdict v : r.verdicts()) {
            int k = v.party();
            int verdict = v.passed() ? 0 : v.failures().contains(VerificationFailure.DROPPED_OUT) ? 1 : 2;
            long failures = 0;
            for (VerificationFailure f : v.failures()) {
                failures |= 1L << f.ordinal();
            }
            round.add(new Row(r.round() + 1, k, verdict, failures, r.checked().length, r.commitSeconds()[k], r.proveSeconds()[k],
                    r.verifySeconds()[k]));
        }
        addRound(round);
    }

    private void addRound(List<Row> round) {
        rounds++;
        if (round.stream().anyMatch(row -> row.verdict() != 0)) {
            roundsWithLosses++;
        }
        for (Row row : round) {
            if (row.verdict() != 0) {
                lostRounds.merge(row.party(), 1, Integer::sum);
            }
            proveSeconds += row.commit() + row.prove();
            verifySeconds += row.verify();
            rows.add(row);
        }
    }

    /** verification.csv so far. */
    public String csv() {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        rows.forEach(row -> b.append(row.csv()));
        return b.toString();
    }

    /** Every row as numbers, [rows, 8] (empty when no round was recorded), for a checkpoint. */
    double[][] toArray() {
        return rows.stream().map(r -> new double[] {r.round(), r.party(), r.verdict(), r.failures(), r.checked(), r.commit(),
                r.prove(), r.verify()}).toArray(double[][]::new);
    }

    /** The log {@link #toArray} saved. */
    static VerificationLog fromArray(int parties, double[][] saved) {
        VerificationLog log = new VerificationLog(parties);
        List<Row> round = new ArrayList<>();
        for (double[] v : saved) {
            Row row = new Row((long) v[0], (int) v[1], (int) v[2], (long) v[3], (int) v[4], v[5], v[6], v[7]);
            if (!round.isEmpty() && round.get(0).round() != row.round()) {
                log.addRound(round);
                round = new ArrayList<>();
            }
            round.add(row);
        }
        if (!round.isEmpty()) {
            log.addRound(round);
        }
        return log;
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
