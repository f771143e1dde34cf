package org.dpdl4j.experiments.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import javax.imageio.ImageIO;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG figures drawn with XChart, without a display: a training plot (loss, accuracy and privacy panels) and general
 * multi-panel line charts. The image has exactly the requested size; panels share its width equally, below
 * the figure title when there is one. Axes run between round numbers ({@link ReadableAxes}).
 */
public final class Plots {
    /** Default size of one panel. */
    public static final int PANEL_WIDTH = 640;
    public static final int PANEL_HEIGHT = 480;

    private static final int TITLE_HEIGHT = 36;
    private static final int MIN_PANEL_SIDE = 100;

    static {
        // Drawing into images needs no display; respect an explicit choice of the user.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private Plots() {
    }

    /** Writes the training plot, {@link #PANEL_WIDTH} x {@link #PANEL_HEIGHT} per panel. */
    public static Path writeTraining(Path png, TrainingCurves curves) {
        Figure figure = curves.figure();
        return write(png, figure, PANEL_WIDTH * figure.panels().size(), defaultHeight(figure));
    }

    /** Writes a figure with panels of the default size. */
    public static Path write(Path png, Figure figure) {
        return write(png, figure, PANEL_WIDTH * figure.panels().size(), defaultHeight(figure));
    }

    private static int defaultHeight(Figure figure) {
        return PANEL_HEIGHT + (figure.title().isEmpty() ? 0 : TITLE_HEIGHT);
    }

    /**
     * Writes a figure as a PNG of exactly {@code width} x {@code height} pixels, replacing the file as a whole.
     *
     * @throws IllegalArgumentException when a panel would be smaller than 100 pixels in either direction
     */
    public static Path write(Path png, Figure figure, int width, int height) {
        Objects.requireNonNull(png, "png must not be null");
        Objects.requireNonNull(figure, "figure must not be null");
        BufferedImage image = render(figure, width, height);
        try {
            AtomicFiles.replace(png, file -> {
                if (!ImageIO.write(image, "png", file.toFile())) {
                    throw new IOException("no PNG writer is available in this Java runtime");
                }
            });
            return png;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write plot " + png + ": " + AtomicFiles.reason(e), e);
        }
    }

    /** Draws a figure into an image of exactly {@code width} x {@code height} pixels. */
    static BufferedImage render(Figure figure, int width, int height) {
        int count = figure.panels().size();
        int titleHeight = figure.title().isEmpty() ? 0 : TITLE_HEIGHT;
        int panelWidth = width / Math.max(count, 1);
        int panelHeight = height - titleHeight;
        if (panelWidth < MIN_PANEL_SIDE || panelHeight < MIN_PANEL_SIDE) {
            throw new IllegalArgumentException("a " + width + " x " + height + " image leaves " + panelWidth + " x "
                    + panelHeight + " pixels for each of " + count + " panels; give at least " + MIN_PANEL_SIDE
                    + " x " + MIN_PANEL_SIDE + " per panel");
        }
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            if (titleHeight > 0) {
                drawTitle(g, figure.title(), width, titleHeight);
            }
            List<Panel> panels = figure.labelledPanels();
            for (int i = 0; i < count; i++) {
                // The last panel takes the pixels left over by the integer division.
                int x = i * panelWidth;
                int w = i == count - 1 ? width - x : panelWidth;
                Graphics2D panelGraphics = (Graphics2D) g.create(x, titleHeight, w, panelHeight);
                try {
                    chart(panels.get(i), w, panelHeight).paint(panelGraphics, w, panelHeight);
                } finally {
                    panelGraphics.dispose();
                }
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    private static void drawTitle(Graphics2D g, String title, int width, int height) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        FontMetrics metrics = g.getFontMetrics();
        int x = Math.max(0, (width - metrics.stringWidth(title)) / 2);
        int y = (height + metrics.getAscent() - metrics.getDescent()) / 2;
        g.drawString(title, x, y);
    }

    /** Corners tried for the legend, in order of preference. */
    private static final Styler.LegendPosition[] CORNERS = {Styler.LegendPosition.InsideNE,
        Styler.LegendPosition.InsideNW, Styler.LegendPosition.InsideSE, Styler.LegendPosition.InsideSW};
    /** Fraction of each axis a legend corner covers. */
    private static final double CORNER = 0.4;

    /** The inside corner with the fewest points under it, so the legend hides as little of the data as possible. */
    static Styler.LegendPosition emptiestCorner(Panel panel) {
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (Series s : panel.series()) {
            double[] x = s.x();
            double[] y = s.y();
            for (int i = 0; i < x.length; i++) {
                if (!Double.isNaN(y[i])) {
                    double v = panel.logY() ? Math.log(y[i]) : y[i];
                    xMin = Math.min(xMin, x[i]);
                    xMax = Math.max(xMax, x[i]);
                    yMin = Math.min(yMin, v);
                    yMax = Math.max(yMax, v);
                }
            }
        }
        int[] counts = new int[CORNERS.length];
        for (Series s : panel.series()) {
            double[] x = s.x();
            double[] y = s.y();
            for (int i = 0; i < x.length; i++) {
                if (Double.isNaN(y[i])) {
                    continue;
                }
                double u = scaled(x[i], xMin, xMax);
                double v = scaled(panel.logY() ? Math.log(y[i]) : y[i], yMin, yMax);
                boolean lineFollows = i + 1 < x.length && !Double.isNaN(y[i + 1]);
                double uNext = lineFollows ? scaled(x[i + 1], xMin, xMax) : u;
                double vNext = lineFollows ? scaled(panel.logY() ? Math.log(y[i + 1]) : y[i + 1], yMin, yMax) : v;
                // Points along the line to the next point count too: the legend must not hide the line.
                for (int k = 0; k < SAMPLES_PER_SEGMENT; k++) {
                    double t = (double) k / SAMPLES_PER_SEGMENT;
                    countCorner(counts, u + t * (uNext - u), v + t * (vNext - v));
                }
            }
        }
        int best = 0;
        for (int c = 1; c < CORNERS.length; c++) {
            if (counts[c] < counts[best]) {
                best = c;
            }
        }
        return CORNERS[best];
    }

    private static final int SAMPLES_PER_SEGMENT = 10;

    private static double scaled(double value, double min, double max) {
        return max > min ? (value - min) / (max - min) : 0.5;
    }

    private static void countCorner(int[] counts, double u, double v) {
        boolean right = u >= 1 - CORNER;
        boolean left = u <= CORNER;
        boolean top = v >= 1 - CORNER;
        boolean bottom = v <= CORNER;
        counts[0] += right && top ? 1 : 0;
        counts[1] += left && top ? 1 : 0;
        counts[2] += right && bottom ? 1 : 0;
        counts[3] += left && bottom ? 1 : 0;
    }

    /** The XChart chart of one panel. */
    static XYChart chart(Panel panel, int width, int height) {
        XYChart chart = new XYChartBuilder().width(width).height(height).title(panel.title())
                .xAxisTitle(panel.xAxisTitle()).yAxisTitle(panel.yAxisTitle()).theme(Styler.ChartTheme.Matlab)
                .build();
        chart.getStyler().setYAxisLogarithmic(panel.logY());
        chart.getStyler().setLegendPosition(emptiestCorner(panel));
        chart.getStyler().setLegendVisible(panel.series().size() > 1 || !panel.series().get(0).name().isBlank());
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        for (Series s : panel.series()) {
            XYSeries line = chart.addSeries(s.name(), s.x(), s.y());
            if (!panel.markers()) {
                line.setMarker(SeriesMarkers.NONE);
            }
        }
        ReadableAxes.apply(chart, panel);
        return chart;
    }
}
