package org.dpdl4j.experiments.report;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One chart of a figure: its title, axis titles, series, and whether the y axis is logarithmic and the
 * points are marked.
 *
 * @param title      chart title (may be empty)
 * @param xAxisTitle x axis title
 * @param yAxisTitle y axis title
 * @param series     at least one series, with distinct names
 * @param logY       logarithmic y axis (every y must then be positive or NaN)
 * @param markers    draw a marker at each point (useful for few points, e.g. one per epsilon)
 */
public record Panel(String title, String xAxisTitle, String yAxisTitle, List<Series> series, boolean logY,
                    boolean markers) {

    public Panel {
        Objects.requireNonNull(title, "title must not be null (use \"\" for none)");
        Objects.requireNonNull(xAxisTitle, "xAxisTitle must not be null");
        Objects.requireNonNull(yAxisTitle, "yAxisTitle must not be null");
        Objects.requireNonNull(series, "series must not be null");
        series = List.copyOf(series);
        if (series.isEmpty()) {
            throw new IllegalArgumentException("panel '" + title + "' has no series; give at least one");
        }
        Set<String> names = new HashSet<>();
        for (Series s : series) {
            if (!names.add(s.name())) {
                throw new IllegalArgumentException("panel '" + title + "' has two series named '" + s.name()
                        + "'; legend labels must be distinct");
            }
        }
        if (logY) {
            for (Series s : series) {
                double[] y = s.y();
                for (int i = 0; i < y.length; i++) {
                    if (y[i] <= 0) {
                        throw new IllegalArgumentException("panel '" + title + "' has a logarithmic y axis but series '"
                                + s.name() + "' has y[" + i + "] = " + y[i] + "; use a linear axis or plot only "
                                + "positive values");
                    }
                }
            }
        }
    }

    /** A panel with a linear y axis and no markers. */
    public static Panel of(String title, String xAxisTitle, String yAxisTitle, List<Series> series) {
        return new Panel(title, xAxisTitle, yAxisTitle, series, false, false);
    }

    public Panel withLogY(boolean logarithmic) {
        return new Panel(title, xAxisTitle, yAxisTitle, series, logarithmic, markers);
    }

    public Panel withMarkers(boolean marked) {
        return new Panel(title, xAxisTitle, yAxisTitle, series, logY, marked);
    }

    public Panel withTitle(String newTitle) {
        return new Panel(newTitle, xAxisTitle, yAxisTitle, series, logY, markers);
    }
}
