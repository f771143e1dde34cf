package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.CsvTable;
import org.dpdl4j.experiments.report.MetricsCsv;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runs a reproduction already finished, read back from its results files (each row is flushed when
 * its run ends), so an interrupted or crashed reproduction resumes where it stopped and loses nothing.
 */
final class FinishedRuns {
    private final Map<String, DecorReproduction.Row> rows = new HashMap<>();
    private final Map<String, double[]> chosenPairs = new HashMap<>();
    private final Map<String, Double> chosenEta0 = new HashMap<>();

    static FinishedRuns read(Path results, Path tuning, Path lrTuning) {
        FinishedRuns f = new FinishedRuns();
        readEach(results, () -> f.readResults(results));
        readEach(tuning, () -> f.readPairs(tuning));
        readEach(lrTuning, () -> f.readRates(lrTuning));
        return f;
    }

    /** Reads a file of earlier rows when there is one, naming it (and the fix) when a cell is not what it should be. */
    private static void readEach(Path file, Runnable read) {
        if (!Files.isRegularFile(file)) {
            return;
        }
        try {
            read.run();
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException(file + " holds a row that cannot be read (" + e.getMessage() + "); mend it,"
                    + " or discard the earlier rows with --fresh", e);
        }
    }

    private void readResults(Path results) {
        CsvTable t = CsvTable.readWholeRows(results);   // a row a crash cut off: its run is redone
        for (int i = 0; i < t.size(); i++) {
            List<String> r = t.rows().get(i);
            double eps = Double.parseDouble(r.get(t.columnIndex("epsilon_target")));
            DecorSetting s = new DecorSetting(DecentralizedAlgorithm.valueOf(r.get(t.columnIndex("algorithm")).toUpperCase(Locale.ROOT)),
                    r.get(t.columnIndex("topology")));
            long seed = Long.parseLong(r.get(t.columnIndex("seed")));
            rows.put(key(eps, s, seed), new DecorReproduction.Row(eps, s, seed, num(t, r, "sigma_cdp"), num(t, r, "sigma_cor"),
                    num(t, r, "clip"), num(t, r, "eta0"), num(t, r, "epsilon_proper"), num(t, r, "epsilon_reference_code"), num(t, r, "metric")));
        }
    }

    private void readPairs(Path tuning) {
        CsvTable t = CsvTable.readWholeRows(tuning);
        for (List<String> r : t.rows()) {
            if (Boolean.parseBoolean(r.get(t.columnIndex("chosen")))) {
                chosenPairs.put(Double.parseDouble(r.get(t.columnIndex("epsilon_target"))) + "|" + r.get(t.columnIndex("topology")),
                        new double[]{num(t, r, "sigma_cdp"), num(t, r, "sigma_cor")});
            }
        }
    }

    private void readRates(Path lrTuning) {
        CsvTable t = CsvTable.readWholeRows(lrTuning);
        for (List<String> r : t.rows()) {
            if (Boolean.parseBoolean(r.get(t.columnIndex("chosen")))) {
                chosenEta0.put(Double.parseDouble(r.get(t.columnIndex("epsilon_target"))) + "|"
                        + r.get(t.columnIndex("algorithm")).toUpperCase(Locale.ROOT) + "|" + r.get(t.columnIndex("topology")),
                        num(t, r, "eta0"));
            }
        }
    }

    /**
     * Rewrites a results file with one row per key (the last one written), so that rows a resumed run replaced
     * (finished earlier with other hyperparameters) leave the file. The new file replaces the old one atomically.
     */
    static void keepLatest(Path file, List<String> header, List<String> keyColumns) {
        if (!Files.isRegularFile(file)) {
            return;
        }
        CsvTable t = CsvTable.read(file);
        Map<List<String>, List<String>> latest = new java.util.LinkedHashMap<>();
        for (List<String> r : t.rows()) {
            List<String> key = keyColumns.stream().map(c -> r.get(t.columnIndex(c))).toList();
            latest.remove(key);
            latest.put(key, r);
        }
        if (latest.size() == t.size()) {
            return;
        }
        try {
            AtomicFiles.replace(file, f -> {
                try (MetricsCsv csv = MetricsCsv.create(f, header)) {
                    for (List<String> r : latest.values()) {
                        csv.append(r);
                    }
                }
            });
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot rewrite " + file + ": " + e.getMessage(), e);
        }
    }

    /** Appends to an existing results file, or creates it. */
    static MetricsCsv open(Path file, List<String> header) {
        return Files.isRegularFile(file) ? MetricsCsv.resume(file, header) : MetricsCsv.create(file, header);
    }

    private static double num(CsvTable t, List<String> row, String column) {
        return Double.parseDouble(row.get(t.columnIndex(column)));
    }

    private static String key(double eps, DecorSetting s, long seed) {
        return eps + "|" + s.algorithm() + "|" + s.topology() + "|" + seed;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    int size() {
        return rows.size();
    }

    DecorReproduction.Row row(double eps, DecorSetting s, long seed) {
        return rows.get(key(eps, s, seed));
    }

    /** The learning rate an earlier run chose by --tune-lr for this setting, or null. */
    Double chosenEta0(double eps, DecorSetting s) {
        return chosenEta0.get(eps + "|" + s.algorithm() + "|" + s.topology());
    }

    double[] chosenPair(double eps, String topology) {
        return chosenPairs.get(eps + "|" + topology);
    }
}
