package org.dpdl4j.attacks.metrics;

import java.util.Objects;

/** Pixel-wise reconstruction metrics on images with values in [0, 1] (data range 1). */
public final class ImageMetrics {
    private ImageMetrics() {
    }

    /**
     * Mean squared error over all pixels and channels.
     *
     * @throws IllegalArgumentException if the images differ in length or are empty
     */
    public static double mse(double[] reconstruction, double[] original) {
        requireSameLength(reconstruction, original);
        double sum = 0;
        for (int i = 0; i < original.length; i++) {
            double d = reconstruction[i] - original[i];
            sum += d * d;
        }
        return sum / original.length;
    }

    /** Peak signal-to-noise ratio {@code 10 log10(1 / mse)} in dB for data range 1; {@code +Infinity} when mse = 0. */
    public static double psnr(double mse) {
        if (!(mse >= 0)) {
            throw new IllegalArgumentException("MSE must be >= 0, got " + mse);
        }
        return mse == 0 ? Double.POSITIVE_INFINITY : 10 * Math.log10(1 / mse);
    }

    /** PSNR of a reconstruction against the original. */
    public static double psnr(double[] reconstruction, double[] original) {
        return psnr(mse(reconstruction, original));
    }

    static void requireSameLength(double[] a, double[] b) {
        Objects.requireNonNull(a, "image must not be null");
        Objects.requireNonNull(b, "image must not be null");
        if (a.length != b.length) {
            throw new IllegalArgumentException("images differ in size: " + a.length + " vs " + b.length + " values");
        }
        if (a.length == 0) {
            throw new IllegalArgumentException("images are empty");
        }
    }
}
