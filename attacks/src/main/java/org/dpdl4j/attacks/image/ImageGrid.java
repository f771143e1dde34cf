package org.dpdl4j.attacks.image;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.imageio.ImageIO;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.ImageOutcome;
import org.dpdl4j.attacks.Snapshot;
import org.dpdl4j.attacks.metrics.ImageMetrics;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.runtime.RunFilePermissions;

/**
 * A PNG of an attack: one row per attacked example, the original first, then the reconstruction at chosen
 * iterations, each captioned with its PSNR; a title line names the attack and the case. Images are scaled up
 * by an integer factor with nearest-neighbour pixels.
 */
public final class ImageGrid {
    /** Iterations shown by default (those the run reached), as in the DLG figures. */
    public static final List<Integer> DEFAULT_ITERATIONS = List.of(0, 10, 50, 100, 300);

    private static final int MARGIN = 8;
    private static final int LEFT_LABEL_WIDTH = 96;
    private static final Font FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

    private final List<Integer> iterations;
    private final int zoom;

    /**
     * @param iterations snapshot iterations to show (missing ones are skipped; the final reconstruction is
     *                   always shown last)
     * @param zoom       integer scale-up of every pixel, >= 1
     */
    public ImageGrid(List<Integer> iterations, int zoom) {
        this.iterations = List.copyOf(Objects.requireNonNull(iterations, "iterations must not be null"));
        if (zoom < 1) {
            throw new IllegalArgumentException("zoom must be >= 1, got " + zoom);
        }
        this.zoom = zoom;
    }

    /** The default columns at 4x zoom. */
    public static ImageGrid defaults() {
        return new ImageGrid(DEFAULT_ITERATIONS, 4);
    }

    /** One column of the grid: a title and one image per attacked example. */
    private record Column(String title, double[][] pixels) {
    }

    private List<Column> columns(AttackResult result) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("original", result.originals()));
        Snapshot last = null;
        for (Snapshot s : result.snapshots()) {
            if (iterations.contains(s.iteration())) {
                columns.add(new Column("iter " + s.iteration(), s.pixels()));
                last = s;
            }
        }
        boolean finalShown = last != null && !result.snapshots().isEmpty()
                && last == result.snapshots().get(result.snapshots().size() - 1);
        if (!finalShown) {
            String title = result.snapshots().isEmpty() ? result.attack()
                    : "final (" + result.timing().outerSteps() + ")";
            columns.add(new Column(title, result.reconstruction()));
        }
        return columns;
    }

    /** Draws the grid. */
    public BufferedImage render(AttackResult result) {
        Objects.requireNonNull(result, "result must not be null");
        ImageShape shape = result.shape();
        List<Column> columns = columns(result);
        int rows = result.originals().length;
        int cellWidth = Math.max(shape.width() * zoom, 72);
        int cellImageHeight = shape.height() * zoom;
        int lineHeight = 16;
        int cellHeight = cellImageHeight + lineHeight + 4;
        int titleHeight = 2 * lineHeight + 4;
        int width = MARGIN * 2 + LEFT_LABEL_WIDTH + columns.size() * (cellWidth + MARGIN);
        int height = MARGIN * 2 + titleHeight + lineHeight + rows * (cellHeight + MARGIN);
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            g.setColor(Color.BLACK);
            g.setFont(FONT);
            FontMetrics metrics = g.getFontMetrics();
            int y = MARGIN + metrics.getAscent();
            g.drawString(titleLine(result), MARGIN, y);
            g.drawString(summaryLine(result), MARGIN, y + lineHeight);
            int headerY = MARGIN + titleHeight + metrics.getAscent();
            for (int c = 0; c < columns.size(); c++) {
                int x = MARGIN + LEFT_LABEL_WIDTH + c * (cellWidth + MARGIN);
                g.drawString(columns.get(c).title(), x, headerY);
            }
            int top = MARGIN + titleHeight + lineHeight;
            for (int r = 0; r < rows; r++) {
                int rowTop = top + r * (cellHeight + MARGIN);
                ImageOutcome outcome = result.images().get(r);
                g.drawString("example " + r, MARGIN, rowTop + metrics.getAscent());
                g.drawString("label " + outcome.trueLabel(), MARGIN, rowTop + lineHeight + metrics.getAscent());
                g.drawString("found " + (outcome.recoveredLabel() < 0 ? "-" : outcome.recoveredLabel()), MARGIN,
                        rowTop + 2 * lineHeight + metrics.getAscent());
                for (int c = 0; c < columns.size(); c++) {
                    int x = MARGIN + LEFT_LABEL_WIDTH + c * (cellWidth + MARGIN);
                    double[] pixels = columns.get(c).pixels()[r];
                    PixelBlocks.draw(image, pixels, shape, zoom, x, rowTop);
                    if (c > 0) {
                        double psnr = ImageMetrics.psnr(pixels, result.originals()[r]);
                        g.drawString(formatPsnr(psnr), x, rowTop + cellImageHeight + metrics.getAscent() + 2);
                    }
                }
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    private static String titleLine(AttackResult result) {
        var p = result.provenance();
        return String.format(Locale.ROOT, "%s on %s / %s, round %d%s", result.attack(), p.protocol(), p.observer(),
                p.round(), Double.isNaN(p.modelAccuracy()) ? ""
                        : String.format(Locale.ROOT, ", model accuracy %.3f", p.modelAccuracy()));
    }

    private static String summaryLine(AttackResult result) {
        String noise = result.noise() == null || result.noise().observedStd() == 0 ? "no noise"
                : String.format(Locale.ROOT, "noise/RMS %.3g", result.noise().ratio());
        return String.format(Locale.ROOT, "%s; PSNR %s, SSIM %.3f, labels %.0f%%", noise, formatPsnr(result.psnr()),
                result.ssim(), 100 * result.labelAccuracy());
    }

    private static String formatPsnr(double psnr) {
        return Double.isInfinite(psnr) ? "exact" : String.format(Locale.ROOT, "%.1f dB", psnr);
    }

    /** Renders the grid and writes it as a PNG, creating parent directories. */
    public void writePng(AttackResult result, Path file) throws IOException {
        Objects.requireNonNull(file, "file must not be null");
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        if (!ImageIO.write(render(result), "png", file.toFile())) {
            throw new IOException("no PNG writer available in this JVM to write " + file);
        }
        RunFilePermissions.restrictFile(file);   // near-exact copies of training images
    }
}
