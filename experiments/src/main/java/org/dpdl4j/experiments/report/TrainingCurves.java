package org.dpdl4j.experiments.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Loss, optionally accuracy, and for a private run the privacy spent, against epoch or round: the training plot of
 * a run. Without accuracy series (least squares, for instance) there is no accuracy panel, and without privacy
 * series (a run without privacy) no privacy panel.
 *
 * @param title         figure title (empty for none)
 * @param xAxisTitle    e.g. "epoch" or "round"
 * @param loss          loss series (e.g. train and test), at least one
 * @param accuracy      accuracy series, possibly none
 * @param logLoss       logarithmic loss axis
 * @param privacyAxis   y axis title of the privacy panel, e.g. "epsilon (delta = 1e-05)"
 * @param privacy       privacy series (the epsilon spent, the budget), possibly none
 */
public record TrainingCurves(String title, String xAxisTitle, List<Series> loss, List<Series> accuracy,
                             boolean logLoss, String privacyAxis, List<Series> privacy) {

    public TrainingCurves {
        Objects.requireNonNull(title, "title must not be null (use \"\" for none)");
        Objects.requireNonNull(xAxisTitle, "xAxisTitle must not be null");
        loss = List.copyOf(Objects.requireNonNull(loss, "loss must not be null"));
        accuracy = List.copyOf(Objects.requireNonNull(accuracy, "accuracy must not be null (use an empty list)"));
        Objects.requireNonNull(privacyAxis, "privacyAxis must not be null");
        privacy = List.copyOf(Objects.requireNonNull(privacy, "privacy must not be null (use an empty list)"));
        if (loss.isEmpty()) {
            throw new IllegalArgumentException("training curves '" + title + "' need at least one loss series");
        }
    }

    /** Curves without a privacy panel. */
    public TrainingCurves(String title, String xAxisTitle, List<Series> loss, List<Series> accuracy, boolean logLoss) {
        this(title, xAxisTitle, loss, accuracy, logLoss, "epsilon", List.of());
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
        return new TrainingCurves(title, xAxisTitle, loss, accuracy, logarithmic, privacyAxis, privacy);
    }

    /** These curves with a privacy panel of the given series against the same x, its y axis titled {@code axis}. */
    public TrainingCurves withPrivacy(String axis, List<Series> series) {
        return new TrainingCurves(title, xAxisTitle, loss, accuracy, logLoss, axis, series);
    }

    /** The figure drawn: loss panel, then the accuracy and privacy panels when there are such series. */
    public Figure figure() {
        List<Panel> panels = new ArrayList<>(3);
        panels.add(Panel.of("loss", xAxisTitle, "loss", loss).withLogY(logLoss));
        if (!accuracy.isEmpty()) {
            panels.add(Panel.of("accuracy", xAxisTitle, "accuracy", accuracy));
        }
        if (!privacy.isEmpty()) {
            panels.add(Panel.of("privacy spent", xAxisTitle, privacyAxis, privacy));
        }
        return new Figure(title, panels, false);
    }
}
