package org.dpdl4j.models;

/**
 * Shape of one image in channels-first (NCHW) order, the layout of a flattened row
 * {@code [c][h][w]} in the data loaders and in DL4J's CNN preprocessors.
 *
 * @param channels number of channels (1 for MNIST, 3 for CIFAR)
 * @param height   height in pixels
 * @param width    width in pixels
 */
public record ImageShape(int channels, int height, int width) {

    /** MNIST: 1 x 28 x 28. */
    public static final ImageShape MNIST = new ImageShape(1, 28, 28);
    /** CIFAR-10/100: 3 x 32 x 32. */
    public static final ImageShape CIFAR = new ImageShape(3, 32, 32);

    public ImageShape {
        Arguments.positive("image shape", "channels", channels);
        Arguments.positive("image shape", "height", height);
        Arguments.positive("image shape", "width", width);
        Arguments.positive("image shape", "channels * height * width", (long) channels * height * width);
    }

    /** Number of values of one flattened image, {@code c * h * w}. */
    public int flatSize() {
        return channels * height * width;
    }

    /**
     * The square image with 1 or 3 channels whose flattened size is {@code flatSize}: 784 gives 1x28x28,
     * 3072 gives 3x32x32. Unambiguous because a number cannot be both a square and three times a square.
     *
     * @throws IllegalArgumentException if {@code flatSize} is neither {@code s^2} nor {@code 3 s^2}
     */
    public static ImageShape squareFromFlatSize(long flatSize) {
        Arguments.positive("image shape", "flatSize", flatSize);
        for (int channels : new int[] {1, 3}) {
            if (flatSize % channels == 0) {
                long side = Math.round(Math.sqrt((double) (flatSize / channels)));
                if (side * side * channels == flatSize) {
                    return new ImageShape(channels, (int) side, (int) side);
                }
            }
        }
        throw new IllegalArgumentException("cannot infer an image shape from " + flatSize + " input features: it is "
                + "neither s*s (grey square image) nor 3*s*s (colour square image); give the image shape "
                + "(channels, height, width) explicitly");
    }

    @Override
    public String toString() {
        return channels + "x" + height + "x" + width;
    }
}
