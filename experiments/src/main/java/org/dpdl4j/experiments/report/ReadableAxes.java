package org.dpdl4j.experiments.report;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * Axis ranges whose ticks read at a glance. A linear axis runs between multiples of a step of 1, 2 or 5 times a power
 * of ten, so that XChart's ticks fall on round numbers (0, 0.2, 0.4; 0, 500, 1000); a logarithmic axis runs between
 * powers of ten, so that at least two of its decades are labelled.
 */
final class ReadableAxes {
    /** At most this many steps between the ends of a linear axis. */
    static final int MAX_STEPS = 8;
    /** Name of the series that keeps XChart from labelling the data's own x values (never drawn). */
    static final String TICK_ANCHOR = "\u0000tick-anchor";

    private static final double[] MANTISSAS = {1, 2, 5, 10};
    /** Slack for floating-point error when a value is (almost) a multiple of the step. */
    private static final double SLACK = 1e-9;

    private ReadableAxes() {
    }

    /** The smallest step of 1, 2 or 5 times a power of ten that covers {@code span} in at most {@link #MAX_STEPS}. */
    static double step(double span) {
        if (!(span > 0) || Double.isInfinite(span)) {
            throw new IllegalArgumentException("an axis span must be positive and finite, got " + span);
        }
        double raw = span / MAX_STEPS;
        double power = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : MANTISSAS) {
            if (m * power >= raw * (1 - SLACK)) {
                return m * power;
            }
        }
        return 10 * power;
    }

    /** {@code [min, max]} widened to multiples of its {@link #step}; a single value gets a span around it. */
    static double[] linear(double min, double max) {
        if (min == max) {
            double half = min == 0 ? 1 : Math.abs(min) / 2;
            return linear(min - half, max + half);
        }
        double step = step(max - min);
        return new double[] {Math.floor(min / step + SLACK) * step, Math.ceil(max / step - SLACK) * step};
    }

    /** {@code [min, max]} (both positive) widened to powers of ten, at least one decade apart. */
    static double[] logarithmic(double min, double max) {
        double low = Math.floor(Math.log10(min) + SLACK);
        double high = Math.ceil(Math.log10(max) - SLACK);
        if (high == low) {
            high++;
        }
        return new double[] {Math.pow(10, low), Math.pow(10, high)};
    }

    /** Sets readable ranges on both axes of a chart drawn from {@code panel}. */
    static void apply(XYChart chart, Panel panel) {
        double[] x = range(panel, true);
        double[] y = range(panel, false);
        if (x != null) {
            double[] bounds = linear(x[0], x[1]);
            chart.getStyler().setXAxisMin(bounds[0]).setXAxisMax(bounds[1]);
        }
        if (y != null) {
            double[] bounds = panel.logY() ? logarithmic(y[0], y[1]) : linear(y[0], y[1]);
            chart.getStyler().setYAxisMin(bounds[0]).setYAxisMax(bounds[1]);
        }
        // XChart 3.8 puts the ticks of equally spaced data (one row every 70 rounds, say) on the data's own values
        // (70, 350, 630); a NaN among the values it inspects breaks the spacing, so its round-number ticks are used.
        // The anchor is disabled: not drawn, not in the legend, not part of the ranges.
        XYSeries anchor = chart.addSeries(TICK_ANCHOR, new double[] {Double.NaN}, new double[] {Double.NaN});
        anchor.setEnabled(false);
        anchor.setShowInLegend(false);
    }

    /** The smallest and largest finite x (or y) of the panel's points with a y, or null when there are none. */
    private static double[] range(Panel panel, boolean x) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Series s : panel.series()) {
            double[] xs = s.x();
            double[] ys = s.y();
            for (int i = 0; i < xs.length; i++) {
                if (!Double.isNaN(ys[i])) {
                    double v = x ? xs[i] : ys[i];
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        return min <= max ? new double[] {min, max} : null;
    }
}
