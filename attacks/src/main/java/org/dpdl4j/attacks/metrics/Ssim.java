package org.dpdl4j.attacks.metrics;

import java.util.Objects;
import org.dpdl4j.models.ImageShape;

/**
 * Structural similarity (Wang, Bovik, Sheikh, Simoncelli 2004) with a Gaussian window:
 * {@code SSIM = ((2 mu_x mu_y + C1)(2 s_xy + C2)) / ((mu_x^2 + mu_y^2 + C1)(s_x^2 + s_y^2 + C2))} at every pixel,
 * with local means, variances and covariance weighted by the normalised window ({@code C1 = (K1 L)^2},
 * {@code C2 = (K2 L)^2}, data range {@code L}); the score is the mean of the map, averaged over channels.
 *
 * <p>Border: "valid" filtering, as the authors' MATLAB code ({@code filter2(window, img, 'valid')}) and
 * scikit-image's {@code structural_similarity} (which filters with reflection, then crops {@code (win-1)/2} pixels
 * from each side before averaging) do: the map covers only window positions fully inside the image, so a
 * 28x28 image gives an 18x18 map. Variances are the weighted population moments, as in the MATLAB code and
 * scikit-image with {@code use_sample_covariance=False}. The Gaussian filter is separable and applied as two
 * 1-D passes.
 *
 * @param windowSize odd side of the square window, at most the image's smaller side
 * @param sigma      standard deviation of the Gaussian window in pixels
 * @param k1         stabiliser of the luminance term
 * @param k2         stabiliser of the contrast-structure term
 * @param dataRange  range of pixel values
 */
public record Ssim(int windowSize, double sigma, double k1, double k2, double dataRange) {

    public Ssim {
        if (windowSize < 1 || windowSize % 2 == 0) {
            throw new IllegalArgumentException("SSIM window size must be a positive odd number, got " + windowSize);
        }
        if (!(sigma > 0) || !(k1 > 0) || !(k2 > 0) || !(dataRange > 0)) {
            throw new IllegalArgumentException("SSIM sigma, K1, K2 and data range must be > 0, got " + sigma + ", "
                    + k1 + ", " + k2 + ", " + dataRange);
        }
    }

    /** The published settings: 11x11 Gaussian window, sigma 1.5, K1 = 0.01, K2 = 0.03, data range 1. */
    public static Ssim standard() {
        return new Ssim(11, 1.5, 0.01, 0.03, 1.0);
    }

    /** The normalised 1-D Gaussian weights; the 2-D window is their outer product. */
    public double[] kernel1d() {
        double[] k = new double[windowSize];
        int half = windowSize / 2;
        double sum = 0;
        for (int i = 0; i < windowSize; i++) {
            double d = i - half;
            k[i] = Math.exp(-d * d / (2 * sigma * sigma));
            sum += k[i];
        }
        for (int i = 0; i < windowSize; i++) {
            k[i] /= sum;
        }
        return k;
    }

    /**
     * SSIM of two images laid out channels-first ({@code [c][h][w]}), averaged over channels.
     *
     * @throws IllegalArgumentException if the sizes do not match the shape or the image is smaller than the window
     */
    public double compute(double[] x, double[] y, ImageShape shape) {
        Objects.requireNonNull(shape, "image shape must not be null");
        ImageMetrics.requireSameLength(x, y);
        if (x.length != shape.flatSize()) {
            throw new IllegalArgumentException("image has " + x.length + " values but shape " + shape + " has "
                    + shape.flatSize());
        }
        if (shape.height() < windowSize || shape.width() < windowSize) {
            throw new IllegalArgumentException("SSIM with a " + windowSize + "x" + windowSize
                    + " window needs images of at least that size, got " + shape);
        }
        double[] kernel = kernel1d();
        int plane = shape.height() * shape.width();
        double c1 = Math.pow(k1 * dataRange, 2);
        double c2 = Math.pow(k2 * dataRange, 2);
        double total = 0;
        for (int c = 0; c < shape.channels(); c++) {
            int offset = c * plane;
            double[] a = new double[plane];
            double[] b = new double[plane];
            double[] aa = new double[plane];
            double[] bb = new double[plane];
            double[] ab = new double[plane];
            for (int i = 0; i < plane; i++) {
                a[i] = x[offset + i];
                b[i] = y[offset + i];
                aa[i] = a[i] * a[i];
                bb[i] = b[i] * b[i];
                ab[i] = a[i] * b[i];
            }
            int h = shape.height();
            int w = shape.width();
            double[] muA = validFilter(a, h, w, kernel);
            double[] muB = validFilter(b, h, w, kernel);
            double[] eAA = validFilter(aa, h, w, kernel);
            double[] eBB = validFilter(bb, h, w, kernel);
            double[] eAB = validFilter(ab, h, w, kernel);
            double sum = 0;
            for (int i = 0; i < muA.length; i++) {
                double varA = eAA[i] - muA[i] * muA[i];
                double varB = eBB[i] - muB[i] * muB[i];
                double cov = eAB[i] - muA[i] * muB[i];
                sum += ((2 * muA[i] * muB[i] + c1) * (2 * cov + c2))
                        / ((muA[i] * muA[i] + muB[i] * muB[i] + c1) * (varA + varB + c2));
            }
            total += sum / muA.length;
        }
        return total / shape.channels();
    }

    /** Separable correlation with the kernel, keeping only positions where the window lies inside the image. */
    private static double[] validFilter(double[] img, int h, int w, double[] kernel) {
        int k = kernel.length;
        int outH = h - k + 1;
        int outW = w - k + 1;
        double[] rows = new double[h * outW];
        for (int r = 0; r < h; r++) {
            for (int c = 0; c < outW; c++) {
                double s = 0;
                for (int t = 0; t < k; t++) {
                    s += kernel[t] * img[r * w + c + t];
                }
                rows[r * outW + c] = s;
            }
        }
        double[] out = new double[outH * outW];
        for (int r = 0; r < outH; r++) {
            for (int c = 0; c < outW; c++) {
                double s = 0;
                for (int t = 0; t < k; t++) {
                    s += kernel[t] * rows[(r + t) * outW + c];
                }
                out[r * outW + c] = s;
            }
        }
        return out;
    }
}
