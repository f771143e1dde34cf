package org.dpdl4j.attacks.inversion;

import org.dpdl4j.models.ImageShape;

/**
 * The anisotropic total variation of images held as flat rows (NCHW), the prior of Inverting Gradients:
 * {@code mean |x[c, i, j+1] - x[c, i, j]| + mean |x[c, i+1, j] - x[c, i, j]|} per image, summed over the batch. Its
 * gradient is the sum of the signs of the differences (0 where a difference is 0).
 */
final class TotalVariation {
    private TotalVariation() {
    }

    /**
     * The total variation of the first {@code batch} images of {@code x} (each {@code shape.flatSize()} values), with
     * {@code weight} times its gradient added to {@code gradient}.
     */
    static double addTo(double[] x, int batch, ImageShape shape, double weight, double[] gradient) {
        int c = shape.channels();
        int h = shape.height();
        int w = shape.width();
        int size = c * h * w;
        double horizontal = c * h * (w - 1.0);
        double vertical = c * (h - 1.0) * w;
        double total = 0;
        for (int b = 0; b < batch; b++) {
            int base = b * size;
            for (int ch = 0; ch < c; ch++) {
                for (int i = 0; i < h; i++) {
                    for (int j = 0; j < w; j++) {
                        int at = base + (ch * h + i) * w + j;
                        if (j + 1 < w) {
                            double d = x[at + 1] - x[at];
                            total += Math.abs(d) / horizontal;
                            double s = weight * Math.signum(d) / horizontal;
                            gradient[at + 1] += s;
                            gradient[at] -= s;
                        }
                        if (i + 1 < h) {
                            double d = x[at + w] - x[at];
                            total += Math.abs(d) / vertical;
                            double s = weight * Math.signum(d) / vertical;
                            gradient[at + w] += s;
                            gradient[at] -= s;
                        }
                    }
                }
            }
        }
        return total;
    }
}
