package org.dpdl4j.nn;

import org.deeplearning4j.nn.conf.CNN2DFormat;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.layers.PoolingType;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;

/** The geometry of a DL4J 2-D {@link SubsamplingLayer} (max or average pooling) on the image it receives. */
final class PoolingReader {
    private PoolingReader() {
    }

    /**
     * @param input the image arriving at the layer, or {@code null} where unknown (a problem was filed for it)
     * @return the geometry, or {@code null} where the layer is not supported or its input unknown (problems filed)
     */
    static PoolingGeometry read(SubsamplingLayer layer, ExampleShape input, LayerProblems problems) {
        boolean supported = true;
        PoolingGeometry.Kind kind = switch (layer.getPoolingType()) {
            case MAX -> PoolingGeometry.Kind.MAX;
            case AVG -> PoolingGeometry.Kind.AVERAGE;
            default -> null;
        };
        if (kind == null) {
            problems.add("pooling type " + layer.getPoolingType() + " is not supported",
                    "use PoolingType.MAX or PoolingType.AVG");
            supported = false;
        }
        if (layer.getCnn2dDataFormat() != CNN2DFormat.NCHW) {
            problems.add("only the NCHW layout is supported, got " + layer.getCnn2dDataFormat(),
                    "use CNN2DFormat.NCHW, DL4J's default");
            supported = false;
        }
        int[] p = layer.getPadding();
        int[] d = layer.getDilation();
        ConvolutionMode mode = layer.getConvolutionMode();
        if (mode == ConvolutionMode.Same || p[0] != 0 || p[1] != 0) {
            problems.add("padded pooling (padding " + p[0] + "x" + p[1] + ", mode " + mode + ") is not supported",
                    "pool without padding in Truncate or Strict mode");
            supported = false;
        } else if (mode != ConvolutionMode.Truncate && mode != ConvolutionMode.Strict) {
            problems.add("convolution mode " + mode + " is not supported for pooling", "use Truncate or Strict");
            supported = false;
        }
        if (d[0] != 1 || d[1] != 1) {
            problems.add("dilated pooling is not supported", "use dilation 1");
            supported = false;
        }
        if (input == null) {
            return null;
        }
        if (!input.isImage()) {
            problems.add("pooling needs image input but receives flat rows (" + input + ")",
                    "put the pooling layer after a convolution");
            return null;
        }
        if (!supported) {
            return null;
        }
        int[] k = layer.getKernelSize();
        int[] s = layer.getStride();
        int inH = (int) input.height();
        int inW = (int) input.width();
        if (mode == ConvolutionMode.Strict && ((inH - k[0]) % s[0] != 0 || (inW - k[1]) % s[1] != 0)) {
            problems.add("in Strict mode the " + k[0] + "x" + k[1] + " windows with strides " + s[0] + "x" + s[1]
                    + " must tile the " + inH + "x" + inW + " input exactly", "use Truncate mode or other sizes");
            return null;
        }
        int outH = (inH - k[0]) / s[0] + 1;
        int outW = (inW - k[1]) / s[1] + 1;
        if (outH < 1 || outW < 1) {
            problems.add("the " + k[0] + "x" + k[1] + " window does not fit the " + inH + "x" + inW + " input",
                    "use a smaller window");
            return null;
        }
        return new PoolingGeometry(kind, (int) input.channels(), inH, inW, k[0], k[1], s[0], s[1], outH, outW);
    }
}
