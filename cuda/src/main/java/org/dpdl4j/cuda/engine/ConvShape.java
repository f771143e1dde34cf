package org.dpdl4j.cuda.engine;

/**
 * The geometry of a 2-D convolution or pooling window over NCHW images, as cuDNN describes it: dilation 1, the same
 * padding on both sides of each axis, {@code out = (in + 2 pad - k) / stride + 1} (rounded down, DL4J's Truncate mode;
 * DL4J's Same mode is this with symmetric padding when its total padding is even).
 *
 * @param inC  input channels
 * @param inH  input height
 * @param inW  input width
 * @param outC output channels (filters; the input channels for pooling)
 * @param kH   window height
 * @param kW   window width
 * @param sH   vertical stride
 * @param sW   horizontal stride
 * @param padH rows of zeros above and below
 * @param padW columns of zeros left and right
 */
public record ConvShape(int inC, int inH, int inW, int outC, int kH, int kW, int sH, int sW, int padH, int padW) {
    public ConvShape {
        if (inC < 1 || inH < 1 || inW < 1 || outC < 1 || kH < 1 || kW < 1 || sH < 1 || sW < 1 || padH < 0 || padW < 0) {
            throw new IllegalArgumentException("a convolution needs positive sizes, kernel and strides and padding >= 0; got "
                    + inC + "x" + inH + "x" + inW + " -> " + outC + ", kernel " + kH + "x" + kW + ", stride " + sH + "x" + sW
                    + ", padding " + padH + "x" + padW);
        }
        if (inH + 2 * padH < kH || inW + 2 * padW < kW) {
            throw new IllegalArgumentException("a " + kH + "x" + kW + " window does not fit a " + inH + "x" + inW
                    + " image padded by " + padH + "x" + padW);
        }
        if (padH >= kH || padW >= kW) {
            throw new IllegalArgumentException("padding " + padH + "x" + padW + " reaches past a " + kH + "x" + kW
                    + " window: some outputs would see only zeros");
        }
    }

    public int outH() {
        return (inH + 2 * padH - kH) / sH + 1;
    }

    public int outW() {
        return (inW + 2 * padW - kW) / sW + 1;
    }

    /** Output positions per map, T. */
    public int positions() {
        return outH() * outW();
    }

    /** Input values each output sees (channels x window), K: the columns of the unfolded input. */
    public int taps() {
        return inC * kH * kW;
    }

    /** Values of one example's input. */
    public int inSize() {
        return inC * inH * inW;
    }

    /** Values of one example's output. */
    public int outSize() {
        return outC * positions();
    }

    /** One (output, input) pair a convolution multiplies, for one example: where the window of an output sits. */
    public interface Tap {
        /**
         * @param co output channel
         * @param oh output row
         * @param ow output column
         * @param ci input channel
         * @param h  input row (inside the image: padding is skipped)
         * @param w  input column (inside the image)
         * @param kh window row
         * @param kw window column
         */
        void at(int co, int oh, int ow, int ci, int h, int w, int kh, int kw);
    }

    /** Visits every (output, input) pair the convolution multiplies, skipping the padding's zeros. */
    public void forEachTap(Tap tap) {
        for (int co = 0; co < outC; co++) {
            for (int oh = 0; oh < outH(); oh++) {
                for (int ow = 0; ow < outW(); ow++) {
                    for (int ci = 0; ci < inC; ci++) {
                        for (int kh = 0; kh < kH; kh++) {
                            int h = oh * sH - padH + kh;
                            for (int kw = 0; kw < kW; kw++) {
                                int w = ow * sW - padW + kw;
                                if (h >= 0 && h < inH && w >= 0 && w < inW) {
                                    tap.at(co, oh, ow, ci, h, w, kh, kw);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
