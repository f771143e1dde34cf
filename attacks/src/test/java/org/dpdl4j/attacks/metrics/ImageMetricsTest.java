package org.dpdl4j.attacks.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.dpdl4j.models.ImageShape;
import org.junit.jupiter.api.Test;

/** MSE, PSNR and SSIM against closed forms, invariants, a direct implementation and scikit-image. */
class ImageMetricsTest {
    private static final ImageShape MNIST = ImageShape.MNIST;

    /** The pair of the scikit-image golden values: a smooth pattern and a perturbed, clipped copy. */
    private static double[][] goldenPair() {
        double[] x = new double[784];
        double[] y = new double[784];
        for (int i = 0; i < 28; i++) {
            for (int j = 0; j < 28; j++) {
                x[i * 28 + j] = (Math.sin(0.3 * i) * Math.cos(0.2 * j) + 1) / 2;
                y[i * 28 + j] = Math.min(1, Math.max(0, x[i * 28 + j] + 0.1 * Math.sin(1.7 * i + 0.9 * j)));
            }
        }
        return new double[][] {x, y};
    }

    private static double[] randomImage(Random random, int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = random.nextDouble();
        }
        return v;
    }

    @Test
    void mseAndPsnrClosedForms() {
        double[] x = {0, 0.5, 1, 0.25};
        double[] y = {0.1, 0.5, 0.8, 0.25};
        assertEquals((0.01 + 0.04) / 4, ImageMetrics.mse(x, y), 1e-15);
        assertEquals(10 * Math.log10(4 / 0.05), ImageMetrics.psnr(x, y), 1e-12);
        assertEquals(20.0, ImageMetrics.psnr(0.01), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, ImageMetrics.psnr(x, x.clone()));
        assertThrows(IllegalArgumentException.class, () -> ImageMetrics.mse(x, new double[3]));
        assertThrows(IllegalArgumentException.class, () -> ImageMetrics.psnr(-1));
    }

    @Test
    void ssimOfAnImageWithItselfIsOne() {
        Random random = new Random(3);
        for (int k = 0; k < 5; k++) {
            double[] x = randomImage(random, 784);
            assertEquals(1.0, Ssim.standard().compute(x, x.clone(), MNIST), 1e-12);
        }
    }

    @Test
    void ssimIsSymmetricAndAtMostOne() {
        Random random = new Random(4);
        for (int k = 0; k < 20; k++) {
            double[] x = randomImage(random, 784);
            double[] y = randomImage(random, 784);
            if (k % 2 == 0) {
                for (int i = 0; i < y.length; i++) {
                    y[i] = 0.7 * x[i] + 0.3 * y[i];
                }
            }
            double xy = Ssim.standard().compute(x, y, MNIST);
            double yx = Ssim.standard().compute(y, x, MNIST);
            assertEquals(xy, yx, 1e-14);
            assertTrue(xy <= 1.0 && xy >= -1.0, "SSIM out of [-1, 1]: " + xy);
        }
    }

    @Test
    void ssimMatchesScikitImage() {
        // skimage.metrics.structural_similarity(x, y, gaussian_weights=True, sigma=1.5,
        //     use_sample_covariance=False, data_range=1.0), scikit-image 0.26.0.
        double[][] pair = goldenPair();
        assertEquals(0.8435107493844656, Ssim.standard().compute(pair[0], pair[1], MNIST), 1e-12);

        // Two channels (channel_axis=-1 there): x with 1 - x, y with 1 - y^2.
        double[] x2 = new double[2 * 784];
        double[] y2 = new double[2 * 784];
        for (int i = 0; i < 784; i++) {
            x2[i] = pair[0][i];
            x2[784 + i] = 1 - pair[0][i];
            y2[i] = pair[1][i];
            y2[784 + i] = 1 - pair[1][i] * pair[1][i];
        }
        assertEquals(0.7818394875530997, Ssim.standard().compute(x2, y2, new ImageShape(2, 28, 28)), 1e-12);
    }

    @Test
    void ssimMatchesADirectTwoDimensionalImplementation() {
        Random random = new Random(5);
        ImageShape shape = new ImageShape(1, 16, 13);
        double[] x = randomImage(random, shape.flatSize());
        double[] y = x.clone();
        for (int i = 0; i < y.length; i++) {
            y[i] = Math.min(1, Math.max(0, y[i] + 0.2 * random.nextGaussian()));
        }
        assertEquals(directSsim(x, y, 16, 13), Ssim.standard().compute(x, y, shape), 1e-12);
    }

    /** Straight from the definition: a 2-D Gaussian window at every valid position, moments summed directly. */
    private static double directSsim(double[] x, double[] y, int h, int w) {
        int k = 11;
        double sigma = 1.5;
        double[][] window = new double[k][k];
        double z = 0;
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                window[i][j] = Math.exp(-((i - 5) * (i - 5) + (j - 5) * (j - 5)) / (2 * sigma * sigma));
                z += window[i][j];
            }
        }
        double c1 = 0.0001;
        double c2 = 0.0009;
        double sum = 0;
        int count = 0;
        for (int r = 0; r + k <= h; r++) {
            for (int c = 0; c + k <= w; c++) {
                double mx = 0;
                double my = 0;
                for (int i = 0; i < k; i++) {
                    for (int j = 0; j < k; j++) {
                        mx += window[i][j] / z * x[(r + i) * w + c + j];
                        my += window[i][j] / z * y[(r + i) * w + c + j];
                    }
                }
                double vx = 0;
                double vy = 0;
                double cov = 0;
                for (int i = 0; i < k; i++) {
                    for (int j = 0; j < k; j++) {
                        double dx = x[(r + i) * w + c + j] - mx;
                        double dy = y[(r + i) * w + c + j] - my;
                        vx += window[i][j] / z * dx * dx;
                        vy += window[i][j] / z * dy * dy;
                        cov += window[i][j] / z * dx * dy;
                    }
                }
                sum += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
                count++;
            }
        }
        return sum / count;
    }

    @Test
    void ssimRefusesImagesSmallerThanTheWindow() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Ssim.standard().compute(new double[100], new double[100], new ImageShape(1, 10, 10)));
        assertTrue(e.getMessage().contains("11x11"), e.getMessage());
    }
}
