package org.dpdl4j.experiments.training;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.dpdl4j.experiments.report.Series;
import org.dpdl4j.experiments.report.TrainingCurves;
import org.dpdl4j.experiments.workload.Workload;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;

/**
 * The rows of a run's {@code metrics.csv}, one per evaluation: the step (epoch, round, hop), train and test loss,
 * test accuracy, the mean loss the steps measured since the previous row, the optimality gap of Decor's synthetic
 * task, and the epsilon spent (private runs).
 */
final class MetricsTable {
    private final String unit;
    private final boolean synthetic;
    private final boolean privateRun;
    private final List<Row> rows = new ArrayList<>();

    /** One row; the step is fractional for a row inside an epoch. */
    record Row(double step, double trainLoss, double testLoss, double testAccuracy, double batchLoss, double optimalityGap,
               double epsilon) {
    }

    MetricsTable(String unit, Workload workload, boolean privateRun) {
        this.unit = unit;
        this.synthetic = workload.synthetic() != null;
        this.privateRun = privateRun;
    }

    List<String> header() {
        List<String> h = new ArrayList<>(List.of(unit, "train_loss", "test_loss", "test_accuracy", "batch_loss"));
        if (synthetic) {
            h.add("optimality_gap");
        }
        if (privateRun) {
            h.add("epsilon");
        }
        return h;
    }

    List<Object> values(Row r) {
        Object step = r.step() == Math.rint(r.step()) ? (Object) (long) r.step() : (Object) r.step();
        List<Object> v = new ArrayList<>(List.of(step, r.trainLoss(), r.testLoss(), r.testAccuracy(), r.batchLoss()));
        if (synthetic) {
            v.add(r.optimalityGap());
        }
        if (privateRun) {
            v.add(r.epsilon());
        }
        return v;
    }

    void add(Row row) {
        rows.add(row);
    }

    /** A row of an earlier session of the run, as its metrics file holds it (columns by name; missing ones NaN). */
    void addSaved(List<String> header, List<String> values) {
        java.util.function.ToDoubleFunction<String> column = name -> {
            int i = header.indexOf(name);
            return i < 0 || values.get(i) == null || values.get(i).isEmpty() ? Double.NaN : Double.parseDouble(values.get(i));
        };
        rows.add(new Row(Double.parseDouble(values.get(0)), column.applyAsDouble("train_loss"),
                column.applyAsDouble("test_loss"), column.applyAsDouble("test_accuracy"), column.applyAsDouble("batch_loss"),
                column.applyAsDouble("optimality_gap"), column.applyAsDouble("epsilon")));
    }

    Row last() {
        return rows.isEmpty() ? null : rows.get(rows.size() - 1);
    }

    /**
     * The plot's curves; a private run's ledger adds the privacy panel: the epsilon of every row and, when the ledger
     * has a budget, the budget as a line.
     */
    TrainingCurves curves(String title, boolean classification, Optional<RunLedger> ledger) {
        double[] x = rows.stream().mapToDouble(Row::step).toArray();
        List<Series> loss = new ArrayList<>();
        if (synthetic) {
            loss.add(new Series("optimality gap", x, rows.stream().mapToDouble(Row::optimalityGap).toArray()));
        } else {
            loss.add(new Series("train loss", x, rows.stream().mapToDouble(Row::trainLoss).toArray()));
            loss.add(new Series("test loss", x, rows.stream().mapToDouble(Row::testLoss).toArray()));
        }
        List<Series> acc = classification
                ? List.of(new Series("test accuracy", x, rows.stream().mapToDouble(Row::testAccuracy).toArray())) : List.of();
        TrainingCurves curves = new TrainingCurves(title, unit, loss, acc, synthetic);
        if (ledger.isEmpty()) {
            return curves;
        }
        List<Series> privacy = new ArrayList<>();
        privacy.add(new Series("epsilon spent", x, rows.stream().mapToDouble(Row::epsilon).toArray()));
        PrivacyBudget budget = ledger.get().budget();
        if (budget.isLimited()) {
            double[] limit = new double[x.length];
            Arrays.fill(limit, budget.epsilon());
            privacy.add(new Series("budget", x, limit));
        }
        return curves.withPrivacy("epsilon (delta = " + ledger.get().delta() + ")", privacy);
    }
}
