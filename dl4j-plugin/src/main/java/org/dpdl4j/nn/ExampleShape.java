package org.dpdl4j.nn;

/**
 * One example as it flows between layers: a flat row of features, or an image in NCHW order (channels,
 * height, width). DL4J's feed-forward/CNN preprocessors convert between the two. A flat row of {@code n}
 * features is stored as {@code n} channels of one pixel.
 *
 * @param channels channels of an image, or the number of features of a flat row
 * @param height   image height; 1 for a flat row
 * @param width    image width; 1 for a flat row
 * @param isImage  whether this is an image
 */
public record ExampleShape(long channels, long height, long width, boolean isImage) {
    public ExampleShape {
        if (channels < 0 || height < 1 || width < 1) {
            throw new IllegalArgumentException("example shape: sizes must be non-negative (height and width"
                    + " positive), got " + channels + "x" + height + "x" + width);
        }
    }

    /** A flat row of {@code size} features. */
    public static ExampleShape flat(long size) {
        return new ExampleShape(size, 1, 1, false);
    }

    /** An NCHW image. */
    public static ExampleShape image(long channels, long height, long width) {
        return new ExampleShape(channels, height, width, true);
    }

    /** Number of values in one example. */
    public long size() {
        return channels * height * width;
    }

    @Override
    public String toString() {
        return isImage ? "image " + channels + "x" + height + "x" + width : "flat " + channels;
    }
}
