package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.experiments.report.CsvTable;
import org.dpdl4j.protocol.federated.Mu2Constants;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runs of a DP-mu^2-FL reproduction that already finished, read back from its mu2.csv (each row is
 * flushed when its run ends), so that an interrupted reproduction resumes where it stopped and loses nothing.
 */
final class Mu2FinishedRuns {
    private Mu2FinishedRuns() {
    }

    /** Key of one run: trust model, M, epsilon and seed. */
    static String key(String trust, int machines, double epsilon, long seed) {
        return trust + "|" + machines + "|" + epsilon + "|" + seed;
    }

    /**
     * The finished runs by {@link #key}; empty when there is no file. Refuses a file written with another delta or
     * other constants (another data subset or diameter): its runs would not belong to this grid.
     */
    static Map<String, Mu2Cell> read(Path csv, double delta, Mu2Constants constants) {
        Map<String, Mu2Cell> out = new HashMap<>();
        if (!Files.isRegularFile(csv)) {
            return out;
        }
        CsvTable t = CsvTable.readWholeRows(csv);   // a row a crash cut off: its run is redone
        for (List<String> r : t.rows()) {
            check(csv, t, r, "delta", delta);
            check(csv, t, r, "D", constants.diameter());
            check(csv, t, r, "G", constants.lipschitz());
            check(csv, t, r, "L", constants.smoothness());
            Mu2Cell c = new Mu2Cell(r.get(t.columnIndex("trust")), (int) num(t, r, "machines"), (long) num(t, r, "rounds"),
                    num(t, r, "epsilon"), num(t, r, "epsilon_achieved"), num(t, r, "sigma"), num(t, r, "eta"), num(t, r, "test_loss"),
                    num(t, r, "test_accuracy"), num(t, r, "train_loss"), (long) num(t, r, "clipped_rounds"), num(t, r, "seconds"),
                    num(t, r, "paper_test_loss"), num(t, r, "paper_test_accuracy"), (long) num(t, r, "seed"), 1, 0, 0);
            out.put(key(c.trust(), c.machines(), c.epsilon(), c.seed()), c);
        }
        return out;
    }

    /**
     * Refuses a finished run whose noise is not the {@code sigma} this grid calibrates for it: it was calibrated by another
     * accounting (an earlier version's zCDP closed form, or another {@code --accountant}), and one table does not mix them.
     */
    static void requireNoise(Path csv, Mu2Cell done, double sigma) {
        if (done.sigma() != sigma) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s holds the run %s, M = %d, epsilon = %s, seed %d with"
                    + " sigma = %s, but this accounting calibrates sigma = %s for it: its runs were calibrated otherwise (with the"
                    + " papers' zCDP closed form, by an earlier version or --accountant rdp, or by the exact Gaussian curve);"
                    + " pass the --accountant that made them, or use --fresh to discard them, or another --out", csv, done.trust(),
                    done.machines(), done.epsilon(), done.seed(), done.sigma(), sigma));
        }
    }

    private static void check(Path csv, CsvTable t, List<String> row, String column, double expected) {
        double found = num(t, row, column);
        if (found != expected) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s holds runs with %s = %s, but this grid has %s = %s; "
                    + "use --fresh to discard them, or another --out", csv, column, found, column, expected));
        }
    }

    private static double num(CsvTable t, List<String> row, String column) {
        return Double.parseDouble(row.get(t.columnIndex(column)));
    }
}
