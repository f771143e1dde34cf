package org.dpdl4j.cuda.engine;

/**
 * The convolution and max-pooling passes of a convolutional network over a batch of b NCHW images (cuDNN's work on a
 * GPU). Weights are DL4J's [outC, inC, kH, kW] in row-major order; outputs are overwritten.
 */
public interface Convolutions {
    /** y [b, outC, outH, outW] := the cross-correlation of x [b, inC, inH, inW] with w (no bias). */
    void forward(ConvShape s, int b, DeviceArray x, DeviceArray w, DeviceArray y);

    /** dx [b, inC, inH, inW] := the gradient with respect to x, given dy [b, outC, outH, outW]. */
    void backwardData(ConvShape s, int b, DeviceArray w, DeviceArray dy, DeviceArray dx);

    /** dw := the gradient with respect to w summed over the batch, given x and dy. */
    void backwardFilter(ConvShape s, int b, DeviceArray x, DeviceArray dy, DeviceArray dw);

    /** y := the maximum over each window (padding never wins); {@code s.outC() == s.inC()}. */
    void maxPool(ConvShape s, int b, DeviceArray x, DeviceArray y);

    /** dx := each window's dy routed to its maximum in x (y holds the maxima), summed where windows overlap. */
    void maxPoolBackward(ConvShape s, int b, DeviceArray x, DeviceArray y, DeviceArray dy, DeviceArray dx);
}
