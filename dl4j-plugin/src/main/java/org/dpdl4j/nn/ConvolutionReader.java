package org.dpdl4j.nn;

import org.deeplearning4j.nn.conf.CNN2DFormat;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;

/** The geometry of a DL4J 2-D convolution on the image it receives, with DL4J's output-size arithmetic. */
final class ConvolutionReader {
    private ConvolutionReader() {
    }

    /**
     * @param input the image arriving at the layer, or {@code null} where unknown (a problem was filed for it)
     * @return the geometry, or {@code null} where it cannot be computed (the problem is filed)
     */
    static ConvolutionGeometry read(ConvolutionLayer layer, ExampleShape input, LayerProblems problems) {
        boolean supported = true;
        if (layer.getCnn2dDataFormat() != CNN2DFormat.NCHW) {
            problems.add("only the NCHW layout is supported, got " + layer.getCnn2dDataFormat(),
                    "use CNN2DFormat.NCHW, DL4J's default");
            supported = false;
        }
        ConvolutionMode mode = layer.getConvolutionMode();
        if (mode != ConvolutionMode.Same && mode != ConvolutionMode.Truncate && mode != ConvolutionMode.Strict) {
            problems.add("convolution mode " + mode + " is not supported", "use Truncate, Strict or Same");
            supported = false;
        }
        if (input == null) {
            return null;
        }
        if (!input.isImage()) {
            problems.add("a convolution needs image input but receives flat rows (" + input + ")",
                    "configure the network with InputType.convolutionalFlat(height, width, channels)");
            return null;
        }
        if (layer.getNIn() != input.channels()) {
            problems.add("expects " + layer.getNIn() + " input channels but receives " + input.channels(),
                    "set nIn(" + input.channels() + ") or let setInputType(...) infer it");
            return null;
        }
        return supported ? geometry(layer, mode, (int) input.height(), (int) input.width(), problems) : null;
    }

    private static ConvolutionGeometry geometry(ConvolutionLayer layer, ConvolutionMode mode, int inH, int inW,
                                                LayerProblems problems) {
        int[] k = layer.getKernelSize();
        int[] s = layer.getStride();
        int[] d = layer.getDilation();
        int[] p = layer.getPadding();
        int effH = (k[0] - 1) * d[0] + 1;
        int effW = (k[1] - 1) * d[1] + 1;
        int outH;
        int outW;
        int padTop;
        int padLeft;
        if (mode == ConvolutionMode.Same) {
            // Same ignores the configured padding: DL4J pads so that out = ceil(in / stride), the extra row and
            // column (if any) at the bottom/right.
            outH = (inH + s[0] - 1) / s[0];
            outW = (inW + s[1] - 1) / s[1];
            padTop = Math.max(0, ((outH - 1) * s[0] + effH - inH) / 2);
            padLeft = Math.max(0, ((outW - 1) * s[1] + effW - inW) / 2);
        } else {
            outH = (inH + 2 * p[0] - effH) / s[0] + 1;
            outW = (inW + 2 * p[1] - effW) / s[1] + 1;
            padTop = p[0];
            padLeft = p[1];
        }
        if (outH < 1 || outW < 1) {
            problems.add("the " + effH + "x" + effW + " kernel (with dilation) does not fit the " + inH + "x" + inW
                    + " input padded by " + p[0] + "x" + p[1], "use a smaller kernel or more padding");
            return null;
        }
        return new ConvolutionGeometry((int) layer.getNIn(), inH, inW, (int) layer.getNOut(), k[0], k[1], s[0], s[1],
                d[0], d[1], padTop, padLeft, outH, outW);
    }
}
