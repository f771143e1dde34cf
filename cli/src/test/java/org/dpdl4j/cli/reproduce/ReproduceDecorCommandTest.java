package org.dpdl4j.cli.reproduce;

import org.dpdl4j.cli.CommandRun;
import org.dpdl4j.experiments.report.CsvTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code reproduce decor --tune-lr}: the choice per setting, the results it drives, and resuming after a changed choice. */
class ReproduceDecorCommandTest {
    @TempDir
    Path tmp;

    private static void run(Path out) {
        CommandRun r = CommandRun.of("reproduce", "decor", "--task", "synthetic", "--epsilons", "10", "--topologies", "ring", "--seeds", "1",
                "--tune-pairs", "1", "--tune-lr", "0.5,1", "--rounds", "100", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
    }

    /** Chosen eta_0 by setting ("cdp complete", ...), read from lr-tuning.csv. */
    private static Map<String, Double> chosen(Path out) {
        CsvTable t = CsvTable.read(out.resolve("lr-tuning.csv"));
        Map<String, Double> m = new HashMap<>();
        for (List<String> r : t.rows()) {
            if (Boolean.parseBoolean(r.get(t.columnIndex("chosen")))) {
                m.put(r.get(t.columnIndex("algorithm")) + " " + r.get(t.columnIndex("topology")), Double.parseDouble(r.get(t.columnIndex("eta0"))));
            }
        }
        return m;
    }

    @Test
    void eachSettingRunsWithTheRateItsTuningChoseAndAChangedChoiceReplacesTheRow() throws IOException {
        Path out = tmp.resolve("decor");
        run(out);
        CsvTable tuning = CsvTable.read(out.resolve("lr-tuning.csv"));
        assertEquals(3 * 2, tuning.size(), "CDP, Decor ring and LDP ring, two factors each");
        Map<String, Double> chosen = chosen(out);
        assertEquals(3, chosen.size(), "one choice per setting");
        CsvTable results = CsvTable.read(out.resolve("results.csv"));
        assertEquals(3, results.size());
        for (List<String> r : results.rows()) {
            String setting = r.get(results.columnIndex("algorithm")) + " " + r.get(results.columnIndex("topology"));
            assertEquals(chosen.get(setting), Double.parseDouble(r.get(results.columnIndex("eta0"))), 0.0, setting);
        }
        assertTrue(Files.readString(out.resolve("summary.md")).contains("lr-tuning.csv"));

        // Flip Decor's choice: the resumed run must redo its result row with the other rate and keep one row per run.
        double table = 1.668e-3;
        double other = chosen.get("decor ring") == table ? table * 0.5 : table;
        StringBuilder flipped = new StringBuilder(String.join(",", tuning.header())).append('\n');
        for (List<String> r : tuning.rows()) {
            boolean decor = r.get(tuning.columnIndex("algorithm")).equals("decor");
            double eta = Double.parseDouble(r.get(tuning.columnIndex("eta0")));
            List<String> copy = new java.util.ArrayList<>(r);
            if (decor) {
                copy.set(tuning.columnIndex("chosen"), Boolean.toString(eta == other));
            }
            flipped.append(String.join(",", copy)).append('\n');
        }
        Files.writeString(out.resolve("lr-tuning.csv"), flipped);
        run(out);
        CsvTable again = CsvTable.read(out.resolve("results.csv"));
        assertEquals(3, again.size(), "the replaced row left the file");
        for (List<String> r : again.rows()) {
            if (r.get(again.columnIndex("algorithm")).equals("decor")) {
                assertEquals(other, Double.parseDouble(r.get(again.columnIndex("eta0"))), 0.0);
            }
        }
    }

    /** The quick job's output: why its noise is seeded, and why the rows below epsilon 7 are not checked. */
    @Test
    void theTableAndSummarySayWhichRowsAreCheckedAndWhyTheNoiseIsSeeded() throws IOException {
        Path out = tmp.resolve("shape");
        CommandRun r = CommandRun.of("reproduce", "decor", "--task", "synthetic", "--epsilons", "5,10", "--topologies", "ring",
                "--seeds", "1", "--tune-pairs", "1", "--rounds", "50", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().startsWith("Noise: seeded, so that every run can be rerun to the same numbers"), r.out());
        assertTrue(r.out().contains("Real training keeps dpdl4j's default, secure noise (train and the library; --noise secure"
                + " here)."), r.out());
        List<String> rows = r.out().lines().filter(l -> l.startsWith("5.0000") || l.startsWith("10.0000")).toList();
        assertEquals(2, rows.size(), r.out());
        assertTrue(rows.get(0).endsWith("not checked: epsilon < 7 (see below)"), rows.get(0));
        assertTrue(rows.get(1).endsWith("holds") || rows.get(1).endsWith("FAILS"), rows.get(1));
        assertTrue(r.out().contains("- epsilon = 5.0000, ring: (Decor - CDP) / (LDP - CDP) = "), r.out());
        assertTrue(r.out().contains("Checked at every epsilon >= 7 only: Decor's gap to CDP at most 1/5 of LDP's."), r.out());
        String summary = Files.readString(out.resolve("summary.md"));
        assertTrue(summary.contains("- Noise: seeded") && summary.contains("`--noise secure` here"), summary);
        assertTrue(summary.contains("so the rows below 7 are shown, not checked."), summary);

        // The rows record neither the noise source nor the rounds: a run that continues the directory must share them,
        // or the summary would call seeded rows secure (or give them another T).
        String accounting = Files.readString(out.resolve("accounting.txt"));
        String resultRows = Files.readString(out.resolve("results.csv"));
        CommandRun secure = CommandRun.of("reproduce", "decor", "--task", "synthetic", "--epsilons", "5,10", "--topologies",
                "ring", "--seeds", "1", "--tune-pairs", "1", "--rounds", "50", "--noise", "secure", "--out", out.toString());
        assertEquals(1, secure.exitCode(), secure.both());
        assertTrue(secure.err().contains("made with --noise seeded, but this run has --noise secure")
                && secure.err().contains("--fresh"), secure.err());
        CommandRun longer = CommandRun.of("reproduce", "decor", "--task", "synthetic", "--epsilons", "5,10", "--topologies",
                "ring", "--seeds", "1", "--tune-pairs", "1", "--rounds", "60", "--out", out.toString());
        assertEquals(1, longer.exitCode(), longer.both());
        assertTrue(longer.err().contains("made with --rounds 50, but this run has --rounds 60"), longer.err());
        assertEquals(summary, Files.readString(out.resolve("summary.md")), "a refused run changes nothing");
        assertEquals(accounting, Files.readString(out.resolve("accounting.txt")));
        assertEquals(resultRows, Files.readString(out.resolve("results.csv")));
    }
}
