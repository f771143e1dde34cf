package org.dpdl4j.experiments.reproduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reproduction journals every finished part, so that a crash midway loses at most the part in progress. */
class ReproductionJournalTest {

    private static RecalRow row(String algorithm, double target, long[] activations) {
        return new RecalRow("covtype", "ring", algorithm, target, Double.isNaN(target) ? Double.POSITIVE_INFINITY : 9.999999,
                Double.isNaN(target) ? Double.NaN : 0.1234567, 960, 120, 960, 1.25, 0.1 / 3,
                List.of(new double[]{0, 0, 1.0}, new double[]{480, 480, 1e-17 / 3}), activations);
    }

    @Test
    void aJournaledRunReadsBackBitForBitAndACutLastLineIsDropped(@TempDir Path dir) throws Exception {
        Map<String, String> settings = Map.of("seed", "1", "zeta", "0.99");
        try (ReproductionJournal journal = ReproductionJournal.open(dir, settings, false)) {
            journal.record(row("recal", Double.NaN, null).toJson());
            journal.record(row("dp-recal", 10.0, new long[]{3, 1, 4, 1, 5, 9, 2, 6}).toJson());
        }
        Path file = dir.resolve(ReproductionJournal.FILE);
        Files.writeString(file, "{\"dataset\":\"covtype\",\"gra", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        try (ReproductionJournal journal = ReproductionJournal.open(dir, settings, false)) {
            assertEquals(2, journal.size());
            RecalRow recal = journal.finished(RecalRow.key("covtype", "ring", "recal", Double.NaN), RecalRow::fromJson).orElseThrow();
            assertTrue(Double.isNaN(recal.rho()) && Double.isInfinite(recal.epsilon()) && recal.activations() == null);
            RecalRow dp = journal.finished(RecalRow.key("covtype", "ring", "dp-recal", 10.0), RecalRow::fromJson).orElseThrow();
            RecalRow expected = row("dp-recal", 10.0, new long[]{3, 1, 4, 1, 5, 9, 2, 6});
            assertEquals(expected.epsilon(), dp.epsilon());
            assertEquals(expected.rho(), dp.rho());
            assertEquals(expected.error(), dp.error());
            assertArrayEquals(expected.activations(), dp.activations());
            assertArrayEquals(expected.curve().get(1), dp.curve().get(1));
            assertFalse(journal.finished(RecalRow.key("covtype", "ring", "dp-nids", 10.0), RecalRow::fromJson).isPresent());
        }
        assertTrue(Files.readString(file).endsWith("}\n"), "the cut line is dropped, so the next one starts a line of its own");
    }

    @Test
    void aJournalOfOtherSettingsIsRefusedNamingThemAndFreshDiscardsIt(@TempDir Path dir) throws Exception {
        try (ReproductionJournal journal = ReproductionJournal.open(dir, Map.of("seed", "1", "zeta", "0.99"), false)) {
            journal.record(row("recal", Double.NaN, null).toJson());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReproductionJournal.open(dir, Map.of("seed", "2", "zeta", "0.99"), false));
        assertTrue(e.getMessage().contains("seed 1 there, 2 now") && e.getMessage().contains("--fresh")
                && e.getMessage().contains("holds 1 parts"), e.getMessage());
        Path file = dir.resolve(ReproductionJournal.FILE);
        String earlier = Files.readString(file);
        try (ReproductionJournal journal = ReproductionJournal.open(dir, Map.of("seed", "2", "zeta", "0.99"), true)) {
            assertEquals(0, journal.size());
            assertEquals(earlier, Files.readString(file), "a fresh journal replaces the earlier one only with its first part");
            journal.record(row("dp-recal", 10.0, null).toJson());
        }
        try (ReproductionJournal journal = ReproductionJournal.open(dir, Map.of("seed", "2", "zeta", "0.99"), false)) {
            assertEquals(1, journal.size());
            assertTrue(journal.finished(RecalRow.key("covtype", "ring", "dp-recal", 10.0), RecalRow::fromJson).isPresent());
        }
    }

    @Test
    void nothingIsWrittenBeforeTheFirstPartAndAJournalWithoutPartsIsNoObstacle(@TempDir Path dir) throws Exception {
        try (ReproductionJournal journal = ReproductionJournal.open(dir, Map.of("seed", "1"), false)) {
            assertEquals(0, journal.size());
        }
        Path file = dir.resolve(ReproductionJournal.FILE);
        assertFalse(Files.exists(file), "a reproduction that fails before its first part leaves its directory as it was");
        Files.writeString(file, "{\"settings\":{\"seed\":\"1\"}}\n");   // an earlier version's, or a crash's, with no part
        try (ReproductionJournal journal = ReproductionJournal.open(dir, Map.of("seed", "2"), false)) {
            assertEquals(0, journal.size(), "other settings, but nothing finished to mix up");
            journal.record(row("recal", Double.NaN, null).toJson());
        }
        assertTrue(Files.readString(file).startsWith("{\"settings\":{\"seed\":\"2\"}}\n"), Files.readString(file));
        try (ReproductionJournal journal = ReproductionJournal.open(dir, Map.of("seed", "2"), false)) {
            journal.delete();
        }
        assertFalse(Files.exists(file));
    }

    @Test
    void aDamagedLineIsNamedWithTheFix(@TempDir Path dir) throws Exception {
        try (ReproductionJournal journal = ReproductionJournal.open(dir, Map.of("seed", "1"), false)) {
            journal.record(row("recal", Double.NaN, null).toJson());
        }
        Path file = dir.resolve(ReproductionJournal.FILE);
        Files.writeString(file, "{\"dataset\":\"covtype\"}\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReproductionJournal.open(dir, Map.of("seed", "1"), false));
        assertTrue(e.getMessage().contains("line 3 is damaged") && e.getMessage().contains("--fresh"), e.getMessage());

        String key = RecalRow.key("covtype", "ring", "dp-nids", 10.0);
        Files.writeString(file, Files.readString(file).replace("{\"dataset\":\"covtype\"}", "{\"key\":\"" + key + "\"}"));
        try (ReproductionJournal journal = ReproductionJournal.open(dir, Map.of("seed", "1"), false)) {
            IllegalArgumentException unread = assertThrows(IllegalArgumentException.class,
                    () -> journal.finished(key, RecalRow::fromJson));
            assertTrue(unread.getMessage().contains(key) && unread.getMessage().contains("no curve")
                    && unread.getMessage().contains("--fresh"), unread.getMessage());
        }
    }

    /** A console that fails as a line containing {@code crashAt} is printed: a crash at that point of a reproduction. */
    private static final class CrashingConsole extends PrintWriter {
        private final String crashAt;

        CrashingConsole(String crashAt) {
            super(new StringWriter());
            this.crashAt = crashAt;
        }

        private final StringBuilder line = new StringBuilder();

        @Override
        public void write(String s, int off, int len) {
            // printf writes a line in pieces: the crash comes once the line so far holds crashAt
            line.append(s, off, off + len);
            if (line.indexOf(crashAt) >= 0) {
                throw new IllegalStateException("simulated crash");
            }
            line.delete(0, line.lastIndexOf("\n") + 1);
            super.write(s, off, len);
        }
    }

    @Test
    void aReproductionRunAgainAfterACrashGoesOnFromItsFinishedRunsAndWritesWhatAnUninterruptedOneWrites(@TempDir Path tmp)
            throws Exception {
        String data = System.getenv(DataDirectory.ENVIRONMENT_VARIABLE);
        assumeTrue(data != null && !data.isBlank(), "skipped: the covtype subset is needed; set DPDL4J_DATA to the data directory");
        RecalReproduction.Settings base = new RecalReproduction.Settings(List.of("covtype"), List.of(10.0), 1e-5, 0.99, 0.05, 96, 1,
                800, 0, Map.of("covtype", 1.0), 1, DataDirectory.of(Path.of(data)), tmp.resolve("whole"), AccountantFactory.TIGHTEST,
                null);
        new RecalReproduction(base, false).run(new PrintWriter(new StringWriter()));
        assertFalse(Files.exists(tmp.resolve("whole").resolve(ReproductionJournal.FILE)), "a finished reproduction deletes its journal");

        RecalReproduction.Settings crashed = new RecalReproduction.Settings(base.datasets(), base.epsilons(), base.delta(), base.zeta(),
                base.lambdaFraction(), base.relayIterations(), base.longRunFactor(), base.covtypeRows(), base.mnistRows(), base.clip(),
                base.seed(), base.dataDir(), tmp.resolve("resumed"), base.accountant(), null);
        assertThrows(IllegalStateException.class, () -> new RecalReproduction(crashed, false).run(new CrashingConsole("dp-pg-extra")));
        assertFalse(Files.exists(tmp.resolve("resumed").resolve("results.csv")));
        StringWriter console = new StringWriter();
        new RecalReproduction(crashed, false).run(new PrintWriter(console));
        assertTrue(console.toString().contains("Going on from the 3 runs"), console.toString());
        assertEquals(3, console.toString().split("finished earlier", -1).length - 1, console.toString());
        assertFalse(Files.exists(tmp.resolve("resumed").resolve(ReproductionJournal.FILE)));

        assertEquals(withoutSeconds(tmp.resolve("whole").resolve("results.csv")), withoutSeconds(tmp.resolve("resumed").resolve("results.csv")));
        for (String same : List.of("curves.csv", "reference.csv")) {   // table.txt differs in its time column alone
            assertEquals(Files.readString(tmp.resolve("whole").resolve(same)), Files.readString(tmp.resolve("resumed").resolve(same)), same);
        }
    }

    @Test
    void aPersonalizedReproductionRunAgainAfterCrashesGoesOnFromWhatFinishedAndWritesWhatAnUninterruptedOneWrites(@TempDir Path tmp)
            throws Exception {
        PersonalizedReproduction.Settings whole = new PersonalizedReproduction.Settings(List.of(2, 5), 12, List.of(0.15, 15.0), 1.0 / 3,
                Math.exp(-5), List.of(0.1, 1.0), List.of(1, 3), List.of(1, 3), 20, 10, 1, List.of(10.0), 1, Double.NaN,
                tmp.resolve("whole"));
        new PersonalizedReproduction(whole, false).run(new PrintWriter(new StringWriter()));
        assertFalse(Files.exists(tmp.resolve("whole").resolve(ReproductionJournal.FILE)), "a finished reproduction deletes its journal");

        PersonalizedReproduction.Settings resumed = new PersonalizedReproduction.Settings(whole.dims(), whole.agents(),
                whole.epsilonBars(), whole.warmStartShare(), whole.deltaBar(), whole.mus(), whole.releases(), whole.sweepReleases(),
                whole.ticksPerAgent(), whole.warmTicksPerAgent(), whole.noiseSeeds(), whole.localDpEpsilons(), whole.seed(),
                whole.featureNormBound(), tmp.resolve("resumed"));
        // first inside the last dimension's budgets, then after the last dimension's sweeps, before the tables
        assertThrows(IllegalStateException.class,
                () -> new PersonalizedReproduction(resumed, false).run(new CrashingConsole("p = 5, epsilon-bar 15.0")));
        assertThrows(IllegalStateException.class,
                () -> new PersonalizedReproduction(resumed, false).run(new CrashingConsole("Personalized learning")));
        StringWriter console = new StringWriter();
        new PersonalizedReproduction(resumed, false).run(new PrintWriter(console));
        assertTrue(console.toString().contains("Going on from the 5 parts")
                && console.toString().contains("the sweeps, curves and membership attack were written earlier")
                && console.toString().contains("releases.csv") && console.toString().contains("membership.png"),
                console.toString());
        assertFalse(Files.exists(tmp.resolve("resumed").resolve(ReproductionJournal.FILE)));
        for (String same : List.of("results.csv", "table.txt", "local-dp.csv", "releases.csv", "gain-per-agent.csv", "curves.csv",
                "membership.csv")) {
            assertEquals(Files.readString(tmp.resolve("whole").resolve(same)), Files.readString(tmp.resolve("resumed").resolve(same)),
                    same);
        }
    }

    /** The rows of a results.csv without their seconds column, which differs from run to run. */
    private static List<String> withoutSeconds(Path results) throws Exception {
        List<String> lines = Files.readAllLines(results);
        int seconds = Arrays.asList(lines.get(0).split(",", -1)).indexOf("seconds");
        return lines.stream().map(l -> {
            List<String> cells = new java.util.ArrayList<>(Arrays.asList(l.split(",", -1)));
            cells.remove(seconds);
            return String.join(",", cells);
        }).toList();
    }
}
