package org.dpdl4j.experiments.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Loss and, optionally, accuracy against epoch or round: the training plot of a run. Without accuracy
 * series (least squares, for instance) the plot has the loss panel only.
 *
 * @param title      figure title (empty for none)
 * @param xAxisTitle e.g. "epoch" or "round"
 * @param loss       loss series (e.g. train and test), at least one
 * @param accuracy   accuracy series, possibly none
 * @param logLoss    logarithmic loss axis
 */
public record TrainingCurves(String title, String xAxisTitle, List<Series> loss, List<Series> accuracy,
                             boolean logLoss) {

    public TrainingCurves {
        Objects.requireNonNull(title, "title must not be null (use \"\" for none)");
        Objects.requireNonNull(xAxisTitle, "xAxisTitle must not be null");
        loss = List.copyOf(Objects.requireNonNull(loss, "loss must not be null"));
        accuracy = List.copyOf(Objects.requireNonNull(accuracy, "accuracy must not be null (use an empty list)"));
        if (loss.isEmpty()) {
            throw new IllegalArgumentException("training curves '" + title + "' need at least one loss series");
        }
    }

    /**
     * Curves from columns of a metrics table, e.g. {@code fromTable(table, "epoch", List.of("train_loss",
     * "test_loss"), List.of("test_accuracy"))}; series are named after their columns.
     */
    public static TrainingCurves fromTable(CsvTable table, String title, String xColumn, List<String> lossColumns,
                                           List<String> accuracyColumns) {
        Objects.requireNonNull(table, "table must not be null");
        double[] x = table.doubles(xColumn);
        return new TrainingCurves(title, xColumn, columns(table, x, lossColumns),
                columns(table, x, accuracyColumns), false);
    }

    private static List<Series> columns(CsvTable table, double[] x, List<String> names) {
        List<Series> series = new ArrayList<>(names.size());
        for (String name : names) {
            series.add(new Series(name, x, table.doubles(name)));
        }
        return series;
    }

    public TrainingCurves withLogLoss(boolean logarithmic) {
        return new TrainingCurves(title, xAxisTitle, loss, accuracy, logarithmic);
    }

    /** The figure drawn: loss panel, then accuracy panel when there are accuracy series. */
    public Figure figure() {
        List<Panel> panels = new ArrayList<>(2);
        panels.add(Panel.of("loss", xAxisTitle, "loss", loss).withLogY(logLoss));
        if (!accuracy.isEmpty()) {
            panels.add(Panel.of("accuracy", xAxisTitle, "accuracy", accuracy));
        }
        return new Figure(title, panels, false);
    }
}
