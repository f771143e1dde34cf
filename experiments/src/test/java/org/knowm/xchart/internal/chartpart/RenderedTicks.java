package org.knowm.xchart.internal.chartpart;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;

/**
 * The tick labels XChart draws on a chart's axes (its axes are package-private, hence this package). The tick
 * calculator also lists ticks beyond the axis range, which are never drawn; they are left out here.
 */
public final class RenderedTicks {
    private RenderedTicks() {
    }

    /** The labels drawn on the x axis, left to right. */
    public static List<String> x(XYChart chart) {
        paint(chart);
        Axis<?, ?> axis = ((Chart<?, ?>) chart).getXAxis();   // package-private in Chart, not inherited by XYChart
        return drawn(axis, axis.getBounds().getWidth());
    }

    /** The labels drawn on the y axis, bottom to top. */
    public static List<String> y(XYChart chart) {
        paint(chart);
        Axis<?, ?> axis = ((Chart<?, ?>) chart).getYAxis();
        return drawn(axis, axis.getBounds().getHeight());
    }

    private static void paint(XYChart chart) {
        BufferedImage image = new BufferedImage(chart.getWidth(), chart.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            chart.paint(g, chart.getWidth(), chart.getHeight());
        } finally {
            g.dispose();
        }
    }

    private static List<String> drawn(Axis<?, ?> axis, double length) {
        AxisTickCalculator ticks = axis.getAxisTickCalculator();
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < ticks.getTickLabels().size(); i++) {
            double at = ticks.getTickLocations().get(i);
            String label = ticks.getTickLabels().get(i);
            if (label != null && at >= 0 && at <= length) {
                labels.add(label);
            }
        }
        return labels;
    }
}
