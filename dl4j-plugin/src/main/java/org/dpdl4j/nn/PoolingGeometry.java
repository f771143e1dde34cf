package org.dpdl4j.nn;

/**
 * Shape arithmetic of one 2-D pooling layer in NCHW layout without padding: output position {@code (i, j)} of
 * channel {@code c} pools the {@code kernelHeight x kernelWidth} window of the input whose top-left corner is
 * {@code (i * strideHeight, j * strideWidth)}, by its maximum or its mean.
 *
 * @param kind         maximum or mean
 * @param channels     channels (unchanged by pooling)
 * @param inHeight     input height
 * @param inWidth      input width
 * @param kernelHeight window height
 * @param kernelWidth  window width
 * @param strideHeight vertical stride
 * @param strideWidth  horizontal stride
 * @param outHeight    output height
 * @param outWidth     output width
 */
public record PoolingGeometry(Kind kind, int channels, int inHeight, int inWidth, int kernelHeight, int kernelWidth,
                              int strideHeight, int strideWidth, int outHeight, int outWidth) {

    /** How a window is reduced. */
    public enum Kind {
        MAX, AVERAGE
    }

    public PoolingGeometry {
        java.util.Objects.requireNonNull(kind, "pooling kind must not be null");
        int[] positive = {channels, inHeight, inWidth, kernelHeight, kernelWidth, strideHeight, strideWidth, outHeight,
                outWidth};
        for (int v : positive) {
            if (v < 1) {
                throw new IllegalArgumentException("pooling geometry: every size and stride must be >= 1, got "
                        + java.util.Arrays.toString(positive));
            }
        }
        if ((outHeight - 1) * strideHeight + kernelHeight > inHeight || (outWidth - 1) * strideWidth + kernelWidth > inWidth) {
            throw new IllegalArgumentException("pooling geometry: a " + outHeight + "x" + outWidth + " output of "
                    + kernelHeight + "x" + kernelWidth + " windows with strides " + strideHeight + "x" + strideWidth
                    + " does not fit a " + inHeight + "x" + inWidth + " input");
        }
    }

    /** Pixels per input channel. */
    public int inputPixels() {
        return inHeight * inWidth;
    }

    /** Positions per output channel. */
    public int outputPositions() {
        return outHeight * outWidth;
    }

    /** Length of one flattened input example. */
    public long inputSize() {
        return (long) channels * inputPixels();
    }

    /** Length of one flattened output example. */
    public long outputSize() {
        return (long) channels * outputPositions();
    }
}
