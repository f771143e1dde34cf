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
import java.util.List;
import java.util.Objects;
import javax.imageio.ImageIO;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.runtime.RunFilePermissions;

/**
 * A PNG of labelled image panels: a title, one title per column, one label per row, and under every image a short
 * caption (e.g. its PSNR). Used to compare reconstructions across protocols and privacy levels. Pixels in [0, 1]
 * are drawn in grey levels (RGB for three channels), scaled up by an integer zoom; a missing image is a grey box.
 */
public final class PanelGrid {
    private static final int MARGIN = 8;
    private static final int GAP = 6;
    private static final Font FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 13);

    /**
     * One panel.
     *
     * @param pixels  the image in [0, 1] (null: nothing to show)
     * @param caption text under the image (may be empty)
     */
    public record Cell(double[] pixels, String caption) {
        public Cell {
            caption = caption == null ? "" : caption;
        }
    }

    private final ImageShape shape;
    private final int zoom;

    /**
     * @param shape image shape of every panel
     * @param zoom  integer scale-up, >= 1
     */
    public PanelGrid(ImageShape shape, int zoom) {
        this.shape = Objects.requireNonNull(shape, "shape must not be null");
        if (zoom < 1) {
            throw new IllegalArgumentException("zoom must be >= 1, got " + zoom);
        }
        this.zoom = zoom;
    }

    /**
     * Draws the grid.
     *
     * @param title        the line at the top
     * @param columnTitles one per column
     * @param rowLabels    one per row (may hold several lines separated by {@code \n})
     * @param rows         the panels, {@code rows.get(r).get(c)}
     * @throws IllegalArgumentException when the counts of titles, labels and panels disagree
     */
    public BufferedImage render(String title, List<String> columnTitles, List<String> rowLabels, List<List<Cell>> rows) {
        if (rowLabels.size() != rows.size()) {
            throw new IllegalArgumentException(rowLabels.size() + " row labels for " + rows.size() + " rows");
        }
        for (int r = 0; r < rows.size(); r++) {
            if (rows.get(r).size() != columnTitles.size()) {
                throw new IllegalArgumentException("row " + r + " has " + rows.get(r).size() + " panels but there are "
                        + columnTitles.size() + " column titles");
            }
        }
        BufferedImage probe = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D pg = probe.createGraphics();
        pg.setFont(FONT);
        FontMetrics metrics = pg.getFontMetrics();
        int lineHeight = metrics.getHeight();
        int labelWidth = 0;
        int labelLines = 1;
        for (String label : rowLabels) {
            String[] lines = label.split("\n");
            labelLines = Math.max(labelLines, lines.length);
            for (String line : lines) {
                labelWidth = Math.max(labelWidth, metrics.stringWidth(line));
            }
        }
        int cellWidth = shape.width() * zoom;
        for (String t : columnTitles) {
            cellWidth = Math.max(cellWidth, metrics.stringWidth(t));
        }
        for (List<Cell> row : rows) {
            for (Cell cell : row) {
                cellWidth = Math.max(cellWidth, metrics.stringWidth(cell.caption()));
            }
        }
        pg.dispose();
        int imageHeight = shape.height() * zoom;
        int cellHeight = Math.max(imageHeight + lineHeight + 2, labelLines * lineHeight);
        int top = MARGIN + 2 * lineHeight + 4;
        int left = MARGIN + labelWidth + GAP * 2;
        int width = left + columnTitles.size() * (cellWidth + GAP) + MARGIN;
        int height = top + rows.size() * (cellHeight + GAP) + MARGIN;

        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            g.setColor(Color.BLACK);
            g.setFont(TITLE_FONT);
            g.drawString(title, MARGIN, MARGIN + metrics.getAscent());
            g.setFont(FONT);
            for (int c = 0; c < columnTitles.size(); c++) {
                g.drawString(columnTitles.get(c), left + c * (cellWidth + GAP), MARGIN + lineHeight + metrics.getAscent());
            }
            for (int r = 0; r < rows.size(); r++) {
                int rowTop = top + r * (cellHeight + GAP);
                String[] lines = rowLabels.get(r).split("\n");
                for (int l = 0; l < lines.length; l++) {
                    g.drawString(lines[l], MARGIN, rowTop + l * lineHeight + metrics.getAscent());
                }
                for (int c = 0; c < columnTitles.size(); c++) {
                    Cell cell = rows.get(r).get(c);
                    int x = left + c * (cellWidth + GAP);
                    PixelBlocks.draw(image, cell.pixels(), shape, zoom, x, rowTop);
                    g.drawString(cell.caption(), x, rowTop + imageHeight + metrics.getAscent());
                }
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    /** Renders the grid and writes it as a PNG, creating parent directories. */
    public void writePng(String title, List<String> columnTitles, List<String> rowLabels, List<List<Cell>> rows,
                         Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        if (!ImageIO.write(render(title, columnTitles, rowLabels, rows), "png", file.toFile())) {
            throw new IOException("no PNG writer available in this JVM to write " + file);
        }
        RunFilePermissions.restrictFile(file);   // near-exact copies of training images
    }
}
