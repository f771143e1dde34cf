package org.dpdl4j.experiments.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.RenderedTicks;
import org.junit.jupiter.api.io.TempDir;

class PlotsTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path dir;

    private static BufferedImage readPng(Path file) throws Exception {
        try (InputStream in = Files.newInputStream(file)) {
            assertArrayEquals(PNG_SIGNATURE, in.readNBytes(8), "PNG signature of " + file);
        }
        BufferedImage image = ImageIO.read(file.toFile());
        assertTrue(image != null, "ImageIO cannot decode " + file);
        return image;
    }

    /** Fraction of non-white pixels in columns [x0, x1). */
    private static double inkIn(BufferedImage image, int x0, int x1) {
        long ink = 0;
        for (int x = x0; x < x1; x++) {
            for (int y = 0; y < image.getHeight(); y++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) != 0xFFFFFF) {
                    ink++;
                }
            }
        }
        return (double) ink / ((long) (x1 - x0) * image.getHeight());
    }

    private static double[] decay(int n, double rate) {
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = Math.exp(-rate * i) + 0.01;
        }
        return y;
    }

    @Test
    void trainingPlotHasLossAndAccuracyPanels() throws Exception {
        double[] accuracy = {0.5, 0.7, 0.8, 0.85, 0.9};
        TrainingCurves curves = new TrainingCurves("MLP on MNIST", "epoch",
                List.of(Series.indexed("train", decay(5, 0.5)), Series.indexed("test", decay(5, 0.4))),
                List.of(Series.indexed("test", accuracy)), false);
        Path png = Plots.writeTraining(dir.resolve("training.png"), curves);
        BufferedImage image = readPng(png);
        assertEquals(2 * Plots.PANEL_WIDTH, image.getWidth());
        assertEquals(Plots.PANEL_HEIGHT + 36, image.getHeight());
        assertTrue(inkIn(image, 0, Plots.PANEL_WIDTH) > 0.01, "loss panel drawn");
        assertTrue(inkIn(image, Plots.PANEL_WIDTH, 2 * Plots.PANEL_WIDTH) > 0.01, "accuracy panel drawn");
    }

    @Test
    void trainingPlotWithoutAccuracyHasOnePanelOfTheRequestedSize() throws Exception {
        TrainingCurves curves = new TrainingCurves("", "round", List.of(Series.indexed("loss", decay(50, 0.1))),
                List.of(), true);
        assertEquals(1, curves.figure().panels().size());
        Path png = Plots.write(dir.resolve("ls.png"), curves.figure(), 500, 300);
        BufferedImage image = readPng(png);
        assertEquals(500, image.getWidth());
        assertEquals(300, image.getHeight());
    }

    @Test
    void trainingCurvesComeFromAMetricsFile() throws Exception {
        Path csvFile = dir.resolve("metrics.csv");
        try (MetricsCsv csv = MetricsCsv.create(csvFile, List.of("epoch", "train_loss", "test_accuracy"))) {
            csv.append(1, 0.9, 0.6);
            csv.append(2, 0.5, null);
            csv.append(3, 0.3, 0.8);
        }
        TrainingCurves curves = TrainingCurves.fromTable(CsvTable.read(csvFile), "run", "epoch",
                List.of("train_loss"), List.of("test_accuracy"));
        assertArrayEquals(new double[] {1, 2, 3}, curves.loss().get(0).x());
        assertTrue(Double.isNaN(curves.accuracy().get(0).y()[1]), "missing accuracy is a gap");
        BufferedImage image = readPng(Plots.writeTraining(dir.resolve("from-csv.png"), curves));
        assertEquals(2 * Plots.PANEL_WIDTH, image.getWidth());
    }

    @Test
    void paperFigureWithThreeLetteredLogPanels() throws Exception {
        double[] eps = {1, 3, 5, 10, 20};
        Panel a = Panel.of("synthetic", "epsilon", "optimality gap", List.of(
                new Series("Decor ring", eps, new double[] {1, 0.3, 0.1, 0.05, 0.01}),
                new Series("LDP", eps, new double[] {3, 1, 0.5, 0.2, 0.1}))).withLogY(true).withMarkers(true);
        Panel b = Panel.of("a9a", "epsilon", "test loss", List.of(new Series("Decor", eps,
                new double[] {0.6, 0.5, 0.45, 0.4, Double.NaN}))).withMarkers(true);
        Panel c = Panel.of("MNIST", "epsilon", "accuracy", List.of(new Series("Decor", eps,
                new double[] {0.7, 0.8, 0.85, 0.9, 0.92})));
        Figure figure = new Figure("Figure 1", List.of(a, b, c), true);
        assertEquals(List.of("(a) synthetic", "(b) a9a", "(c) MNIST"),
                figure.labelledPanels().stream().map(Panel::title).toList());
        Path png = Plots.write(dir.resolve("fig1.png"), figure, 1500, 450);
        BufferedImage image = readPng(png);
        assertEquals(1500, image.getWidth());
        assertEquals(450, image.getHeight());
        for (int panel = 0; panel < 3; panel++) {
            assertTrue(inkIn(image, panel * 500, panel * 500 + 500) > 0.01, "panel " + panel + " drawn");
        }
    }

    @Test
    void invalidFiguresAreRejectedWithTheReason() {
        double[] x = {1, 2};
        IllegalArgumentException log = assertThrows(IllegalArgumentException.class,
                () -> Panel.of("p", "x", "y", List.of(new Series("s", x, new double[] {1, 0}))).withLogY(true));
        assertTrue(log.getMessage().contains("y[1] = 0.0") && log.getMessage().contains("logarithmic"),
                log.getMessage());
        IllegalArgumentException lengths = assertThrows(IllegalArgumentException.class,
                () -> new Series("s", x, new double[] {1}));
        assertTrue(lengths.getMessage().contains("2 x values and 1 y values"), lengths.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new Series("s", x, new double[] {1, Double.POSITIVE_INFINITY}));
        assertThrows(IllegalArgumentException.class, () -> new Series("s", new double[] {Double.NaN}, new double[] {1}));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> Panel.of("p", "x", "y",
                List.of(new Series("s", x, x), new Series("s", x, x))));
        assertTrue(twice.getMessage().contains("two series named 's'"), twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Panel.of("p", "x", "y", List.of()));
        Figure figure = Figure.of(Panel.of("p", "x", "y", List.of(new Series("s", x, x))));
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> Plots.write(dir.resolve("tiny.png"), figure, 50, 400));
        assertTrue(small.getMessage().contains("at least 100 x 100"), small.getMessage());
    }

    @Test
    void seriesAreImmutableCopies() {
        double[] y = {1, 2};
        Series s = Series.indexed("s", y);
        y[0] = 99;
        s.y()[1] = 99;
        assertArrayEquals(new double[] {1, 2}, s.y());
        assertEquals(Series.indexed("s", new double[] {1, 2}), s);
        assertTrue(Arrays.equals(new double[] {1, 2}, s.x()));
    }

    @Test
    void legendGoesToTheCornerTheDataLeavesEmpty() {
        double[] x = {1, 2, 3, 4, 5};
        Panel rising = Panel.of("acc", "epoch", "accuracy", List.of(new Series("test", x,
                new double[] {0.5, 0.8, 0.9, 0.93, 0.95})));
        assertEquals(org.knowm.xchart.style.Styler.LegendPosition.InsideSE, Plots.emptiestCorner(rising));
        Panel falling = Panel.of("loss", "epoch", "loss", List.of(new Series("train", x,
                new double[] {1, 0.5, 0.3, 0.2, 0.1})));
        assertEquals(org.knowm.xchart.style.Styler.LegendPosition.InsideNE, Plots.emptiestCorner(falling));
    }

    /** The numbers of an axis's drawn labels (XChart groups thousands with commas). */
    private static List<Double> values(List<String> labels) {
        return labels.stream().map(l -> Double.parseDouble(l.replace(",", ""))).toList();
    }

    /** Equally spaced evaluation rows (every 70 rounds) get round ticks, not the data's own 70, 350, 630. */
    @Test
    void equallySpacedRowsGetRoundTicksFromZero() {
        double[] rounds = new double[50];
        Arrays.setAll(rounds, i -> 70.0 * (i + 1));
        Panel panel = Panel.of("loss", "round", "loss", List.of(new Series("train", rounds, decay(50, 0.05))));
        List<Double> ticks = values(RenderedTicks.x(Plots.chart(panel, Plots.PANEL_WIDTH, Plots.PANEL_HEIGHT)));
        assertEquals(List.of(0.0, 500.0, 1000.0, 1500.0, 2000.0, 2500.0, 3000.0, 3500.0), ticks);
    }

    @Test
    void fractionalStepsGetTicksOfOneTwoOrFiveTimesAPowerOfTen() {
        double[] epochs = new double[12];
        Arrays.setAll(epochs, i -> 0.137 * (i + 1));
        Panel panel = Panel.of("acc", "epoch", "accuracy", List.of(new Series("test", epochs, decay(12, -0.01))));
        XYChart chart = Plots.chart(panel, Plots.PANEL_WIDTH, Plots.PANEL_HEIGHT);
        for (List<Double> ticks : List.of(values(RenderedTicks.x(chart)), values(RenderedTicks.y(chart)))) {
            assertTrue(ticks.size() >= 3, "ticks " + ticks);
            double step = ticks.get(1) - ticks.get(0);
            double mantissa = step / Math.pow(10, Math.floor(Math.log10(step)));
            assertTrue(List.of(1L, 2L, 5L).contains(Math.round(mantissa)) && Math.abs(mantissa - Math.round(mantissa)) < 1e-6,
                    "step " + step + " of " + ticks);
            for (double t : ticks) {
                assertEquals(Math.round(t / step), t / step, 1e-6, "tick " + t + " is a multiple of " + step);
            }
        }
        assertEquals(0.0, values(RenderedTicks.x(chart)).get(0), "the epoch axis starts at 0");
    }

    @Test
    void logarithmicAxisSpansWholeDecadesSoThatTwoAreLabelled() {
        double[] x = {1, 2, 3, 4, 5};
        Panel panel = Panel.of("gap", "round", "optimality gap", List.of(new Series("gap", x,
                new double[] {4.8, 2.5, 1.4, 0.9, 0.55}))).withLogY(true);
        assertEquals(List.of(0.1, 1.0, 10.0), values(RenderedTicks.y(Plots.chart(panel, Plots.PANEL_WIDTH, Plots.PANEL_HEIGHT))));
    }

    @Test
    void readableRangesAndSteps() {
        assertEquals(500, ReadableAxes.step(3430));
        assertEquals(0.2, ReadableAxes.step(1.5), 1e-12);
        assertEquals(1, ReadableAxes.step(8));
        assertArrayEquals(new double[] {0, 3500}, ReadableAxes.linear(70, 3500));
        assertArrayEquals(new double[] {0.8, 0.94}, ReadableAxes.linear(0.81, 0.93), 1e-12);
        assertArrayEquals(new double[] {4, 16}, ReadableAxes.linear(10, 10), 1e-12);
        assertArrayEquals(new double[] {0.01, 1000}, ReadableAxes.logarithmic(0.0116, 128.8), 1e-12);
        assertArrayEquals(new double[] {1, 10}, ReadableAxes.logarithmic(1, 1), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> ReadableAxes.step(0));
    }

    @Test
    void privateRunsGetAPrivacyPanel() throws Exception {
        double[] epochs = {1, 2, 3, 4};
        TrainingCurves curves = new TrainingCurves("DP-SGD", "epoch", List.of(Series.indexed("train", decay(4, 0.5))),
                List.of(Series.indexed("test", new double[] {0.6, 0.7, 0.75, 0.8})), false)
                .withPrivacy("epsilon (delta = 1e-05)", List.of(new Series("epsilon spent", epochs, new double[] {0.9, 1.4, 1.8, 2.0}),
                        new Series("budget", epochs, new double[] {2, 2, 2, 2})));
        Figure figure = curves.figure();
        assertEquals(List.of("loss", "accuracy", "privacy spent"), figure.panels().stream().map(Panel::title).toList());
        assertEquals("epsilon (delta = 1e-05)", figure.panels().get(2).yAxisTitle());
        BufferedImage image = readPng(Plots.writeTraining(dir.resolve("private.png"), curves));
        assertEquals(3 * Plots.PANEL_WIDTH, image.getWidth());
        assertTrue(inkIn(image, 2 * Plots.PANEL_WIDTH, 3 * Plots.PANEL_WIDTH) > 0.01, "privacy panel drawn");
    }
}
