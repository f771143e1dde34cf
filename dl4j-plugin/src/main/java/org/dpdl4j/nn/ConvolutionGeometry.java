package org.dpdl4j.nn;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Shape arithmetic of one 2-D convolution in NCHW layout (cross-correlation, as DL4J computes it):
 * {@code out[o, i, j] = b[o] + sum_{c, ki, kj} W[o, c, ki, kj] * in[c, i*sh + ki*dh - padTop, j*sw + kj*dw - padLeft]},
 * with zeros outside the input. Padding may be asymmetric (DL4J's {@code Same} mode pads the bottom/right
 * more); only the top/left padding and the output size are needed.
 *
 * @param inChannels  input channels
 * @param inHeight    input height
 * @param inWidth     input width
 * @param outChannels output channels (filters)
 * @param kernelHeight kernel height
 * @param kernelWidth  kernel width
 * @param strideHeight vertical stride
 * @param strideWidth  horizontal stride
 * @param dilationHeight vertical dilation
 * @param dilationWidth  horizontal dilation
 * @param padTop       zero rows above the input
 * @param padLeft      zero columns left of the input
 * @param outHeight    output height
 * @param outWidth     output width
 */
public record ConvolutionGeometry(int inChannels, int inHeight, int inWidth, int outChannels,
                                  int kernelHeight, int kernelWidth, int strideHeight, int strideWidth,
                                  int dilationHeight, int dilationWidth, int padTop, int padLeft,
                                  int outHeight, int outWidth) {

    public ConvolutionGeometry {
        int[] positive = {inChannels, inHeight, inWidth, outChannels, kernelHeight, kernelWidth, strideHeight,
                strideWidth, dilationHeight, dilationWidth, outHeight, outWidth};
        for (int v : positive) {
            if (v < 1) {
                throw new IllegalArgumentException("convolution geometry: every size, stride and dilation must be >= 1,"
                        + " got " + java.util.Arrays.toString(positive));
            }
        }
        if (padTop < 0 || padLeft < 0) {
            throw new IllegalArgumentException("convolution geometry: padding must be >= 0, got top " + padTop
                    + ", left " + padLeft);
        }
    }

    /** Number of input pixels per channel, {@code inHeight * inWidth}. */
    public int inputPixels() {
        return inHeight * inWidth;
    }

    /** Number of output positions per channel, {@code outHeight * outWidth}. */
    public int outputPositions() {
        return outHeight * outWidth;
    }

    /** Number of kernel taps per input channel, {@code kernelHeight * kernelWidth}. */
    public int kernelTaps() {
        return kernelHeight * kernelWidth;
    }

    /** Length of one flattened input example, {@code inChannels * inHeight * inWidth}. */
    public long inputSize() {
        return (long) inChannels * inputPixels();
    }

    /** Length of one flattened output example, {@code outChannels * outHeight * outWidth}. */
    public long outputSize() {
        return (long) outChannels * outputPositions();
    }

    /**
     * Whether padding {@code padTop} rows on both the top and the bottom (and {@code padLeft} columns on both
     * sides) gives the same output grid, as for DL4J's Truncate and Strict modes and for Same mode with even total
     * padding; then a standard im2col with symmetric padding reproduces this convolution.
     */
    public boolean isSymmetricallyPadded() {
        int effectiveHeight = (kernelHeight - 1) * dilationHeight + 1;
        int effectiveWidth = (kernelWidth - 1) * dilationWidth + 1;
        return (inHeight + 2 * padTop - effectiveHeight) / strideHeight + 1 == outHeight
                && (inWidth + 2 * padLeft - effectiveWidth) / strideWidth + 1 == outWidth;
    }

    /**
     * For output position {@code p = i * outWidth + j} and tap {@code k = ki * kernelWidth + kj}, entry
     * {@code p * kernelTaps() + k} is the input pixel index {@code row * inWidth + col} the tap reads, or -1
     * where it reads padding. The same map serves every channel.
     */
    public int[] tapSources() {
        int taps = kernelTaps();
        int[] sources = new int[outputPositions() * taps];
        for (int i = 0; i < outHeight; i++) {
            for (int j = 0; j < outWidth; j++) {
                int p = i * outWidth + j;
                for (int ki = 0; ki < kernelHeight; ki++) {
                    int row = i * strideHeight + ki * dilationHeight - padTop;
                    for (int kj = 0; kj < kernelWidth; kj++) {
                        int col = j * strideWidth + kj * dilationWidth - padLeft;
                        boolean inside = row >= 0 && row < inHeight && col >= 0 && col < inWidth;
                        sources[p * taps + ki * kernelWidth + kj] = inside ? row * inWidth + col : -1;
                    }
                }
            }
        }
        return sources;
    }

    /**
     * The 0/1 matrix {@code G} ({@code inputPixels x outputPositions * kernelTaps}) of the im2col gather: for one
     * channel's pixels as a row vector {@code v}, {@code v G} lists, for every output position, the values under
     * the kernel. It serves convolutions whose padding no symmetric im2col reproduces
     * ({@link #isSymmetricallyPadded()} false); its size is pixels x positions x taps, so it is meant for small
     * images.
     */
    public INDArray gatherMatrix(DataType dataType) {
        int[] sources = tapSources();
        INDArray g = Nd4j.zeros(dataType, inputPixels(), sources.length);
        for (int column = 0; column < sources.length; column++) {
            if (sources[column] >= 0) {
                g.putScalar(sources[column], column, 1.0);
            }
        }
        return g;
    }
}
