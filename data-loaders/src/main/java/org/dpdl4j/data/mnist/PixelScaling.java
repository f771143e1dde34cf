package org.dpdl4j.data.mnist;

/** How MNIST's unsigned-byte pixels 0..255 become feature values. */
public enum PixelScaling {
    /** The byte values 0..255 unchanged. */
    RAW,
    /** {@code p / 255}, in [0, 1]. */
    UNIT_INTERVAL,
    /**
     * {@code (p / 255 - 0.1307) / 0.3081}: the usual normalisation with the training set's pixel mean
     * and standard deviation (as in the Decor MNIST experiments).
     */
    STANDARDIZED;

    /** Mean pixel value of the MNIST training images on the [0, 1] scale. */
    public static final double MNIST_MEAN = 0.1307;
    /** Standard deviation of the MNIST training pixels on the [0, 1] scale. */
    public static final double MNIST_STD = 0.3081;

    /** The feature value of each of the 256 byte values. */
    float[] lookupTable() {
        float[] t = new float[256];
        for (int p = 0; p < 256; p++) {
            t[p] = (float) apply(p);
        }
        return t;
    }

    /** The feature value of one pixel byte value (0..255), in double precision. */
    public double apply(int pixel) {
        if (pixel < 0 || pixel > 255) {
            throw new IllegalArgumentException("pixel value must be in 0..255, got " + pixel);
        }
        return switch (this) {
            case RAW -> pixel;
            case UNIT_INTERVAL -> pixel / 255.0;
            case STANDARDIZED -> (pixel / 255.0 - MNIST_MEAN) / MNIST_STD;
        };
    }
}
