package org.dpdl4j.attacks.image;

import org.dpdl4j.models.ImageShape;

import java.awt.image.BufferedImage;

/** Draws one image's pixels into a larger picture, each pixel as a zoom x zoom block (the grids' shared brush). */
final class PixelBlocks {
    /** Drawn where there is no image at all. */
    private static final int MISSING = 0xB0B0B0;

    private PixelBlocks() {
    }

    /**
     * Draws {@code pixels} (channel planes of {@code shape}, values in [0, 1]) with its top-left corner at
     * ({@code left}, {@code top}): grey levels, or RGB for three channels; null draws a plain grey box.
     */
    static void draw(BufferedImage image, double[] pixels, ImageShape shape, int zoom, int left, int top) {
        int plane = shape.height() * shape.width();
        for (int i = 0; i < shape.height(); i++) {
            for (int j = 0; j < shape.width(); j++) {
                int at = i * shape.width() + j;
                int rgb;
                if (pixels == null) {
                    rgb = MISSING;
                } else if (shape.channels() >= 3) {
                    rgb = (level(pixels[at]) << 16) | (level(pixels[plane + at]) << 8) | level(pixels[2 * plane + at]);
                } else {
                    int v = level(pixels[at]);
                    rgb = (v << 16) | (v << 8) | v;
                }
                for (int dy = 0; dy < zoom; dy++) {
                    for (int dx = 0; dx < zoom; dx++) {
                        image.setRGB(left + j * zoom + dx, top + i * zoom + dy, rgb);
                    }
                }
            }
        }
    }

    /** A pixel in [0, 1] as 0..255; NaN (a failed reconstruction) is drawn mid-grey. */
    private static int level(double v) {
        return Double.isNaN(v) ? 128 : (int) Math.round(Math.max(0, Math.min(1, v)) * 255);
    }
}
