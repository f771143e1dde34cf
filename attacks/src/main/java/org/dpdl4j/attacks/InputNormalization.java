package org.dpdl4j.attacks;

import org.dpdl4j.data.mnist.PixelScaling;

/**
 * How pixels in [0, 1] became model inputs: {@code input = (pixel - mean) / std}, the same for every channel.
 * Reconstructions are mapped back to pixels and clamped to [0, 1] before they are scored or drawn.
 *
 * @param mean subtracted from pixels
 * @param std  divides the centred pixels, > 0
 */
public record InputNormalization(double mean, double std) {

    /** Pixels fed as they are. */
    public static final InputNormalization NONE = new InputNormalization(0.0, 1.0);
    /** MNIST's training-set mean 0.1307 and standard deviation 0.3081. */
    public static final InputNormalization MNIST = new InputNormalization(PixelScaling.MNIST_MEAN,
            PixelScaling.MNIST_STD);

    public InputNormalization {
        if (!Double.isFinite(mean)) {
            throw new IllegalArgumentException("normalisation mean must be finite, got " + mean);
        }
        if (!(std > 0) || Double.isInfinite(std)) {
            throw new IllegalArgumentException("normalisation std must be a positive finite number, got " + std);
        }
    }

    /** The normalisation the data loaders apply for a pixel scaling of MNIST (RAW is not an image in [0, 1]). */
    public static InputNormalization of(PixelScaling scaling) {
        return switch (scaling) {
            case UNIT_INTERVAL -> NONE;
            case STANDARDIZED -> MNIST;
            case RAW -> throw new IllegalArgumentException("RAW pixels (0..255) are not images in [0, 1]; attack a model"
                    + " trained on UNIT_INTERVAL or STANDARDIZED pixels");
        };
    }

    /** Model inputs to pixels, {@code clamp(input * std + mean, 0, 1)}, as a new array. */
    public double[] toPixels(double[] inputs) {
        double[] pixels = new double[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            double v = inputs[i] * std + mean;
            pixels[i] = v < 0 ? 0 : (v > 1 ? 1 : v);
        }
        return pixels;
    }
}
