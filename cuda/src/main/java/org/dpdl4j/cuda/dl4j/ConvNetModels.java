package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.conf.CNN2DFormat;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.BaseOutputLayer;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.PoolingType;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.conf.preprocessor.CnnToFeedForwardPreProcessor;
import org.deeplearning4j.nn.conf.preprocessor.FeedForwardToCnnPreProcessor;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.engine.Activation;
import org.dpdl4j.cuda.engine.ConvNetModel;
import org.dpdl4j.cuda.engine.ConvShape;
import org.dpdl4j.optim.HostActivation;
import org.dpdl4j.optim.HostOutputLoss;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.ArrayList;
import java.util.List;

/**
 * A DL4J convolutional network as the engine's {@link ConvNetModel}: flat rows of pixels made images by
 * {@code InputType.convolutionalFlat} (FeedForwardToCnnPreProcessor), 2-D convolutions (NCHW, dilation 1, Truncate,
 * Strict or Same mode with the same padding on both sides) and max pooling, flattened into dense layers ending in an
 * output layer, all float32: the private tanh CNN of dpdl4j-models and networks like it. Parameter offsets are read
 * from the network's own parameter views, so DL4J's layout (a convolution's bias before its weights) is taken as it is.
 */
final class ConvNetModels {
    private ConvNetModels() {
    }

    /** Null when the engine computes the network; else why not, naming the layer. */
    static String whyNot(MultiLayerNetwork net) {
        try {
            of(net);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * The engine's model of a network.
     *
     * @throws IllegalArgumentException naming the layer or setting the engine does not compute, and what to use
     */
    static ConvNetModel of(MultiLayerNetwork net) {
        MultiLayerConfiguration conf = net.getLayerWiseConfigurations();
        if (net.params().dataType() != DataType.FLOAT) {
            throw new IllegalArgumentException("the CUDA engine computes float32 networks; this one is "
                    + net.params().dataType() + " (build it with dataType(DataType.FLOAT))");
        }
        if (!(conf.getInputPreProcess(0) instanceof FeedForwardToCnnPreProcessor images)) {
            throw new IllegalArgumentException("the CUDA engine takes a convolutional network's examples as flat rows of"
                    + " pixels: build it with setInputType(InputType.convolutionalFlat(height, width, channels))");
        }
        int channels = (int) images.getNumChannels();
        int height = (int) images.getInputHeight();
        int width = (int) images.getInputWidth();
        List<ConvNetModel.Stage> stages = new ArrayList<>();
        int i = 0;
        for (; i < net.getnLayers(); i++) {
            Layer layer = conf.getConf(i).getLayer();
            if (layer instanceof DenseLayer || layer instanceof BaseOutputLayer) {
                break;
            }
            if (i > 0 && conf.getInputPreProcess(i) != null) {
                throw new IllegalArgumentException("layer " + i + " has a preprocessor (" + conf.getInputPreProcess(i)
                        .getClass().getSimpleName() + ") inside the convolutional part, which the CUDA engine does not run");
            }
            ConvNetModel.Stage stage = stage(net, i, layer, channels, height, width);
            stages.add(stage);
            channels = stage.shape().outC();
            height = stage.shape().outH();
            width = stage.shape().outW();
        }
        if (stages.isEmpty() || i == net.getnLayers()) {
            throw new IllegalArgumentException("the CUDA engine computes convolutional networks as convolutions and max"
                    + " pooling followed by dense layers and an output layer");
        }
        InputPreProcessor flatten = conf.getInputPreProcess(i);
        if (!(flatten instanceof CnnToFeedForwardPreProcessor maps) || maps.getFormat() != CNN2DFormat.NCHW
                || maps.getNumChannels() != channels || maps.getInputHeight() != height || maps.getInputWidth() != width) {
            throw new IllegalArgumentException("layer " + i + " must take the convolutional part's " + channels + "x"
                    + height + "x" + width + " maps flattened in NCHW order (CnnToFeedForwardPreProcessor, which"
                    + " setInputType adds)");
        }
        List<org.dpdl4j.cuda.engine.DenseLayer> dense = new ArrayList<>();
        for (; i < net.getnLayers(); i++) {
            Layer layer = conf.getConf(i).getLayer();
            boolean output = i == net.getnLayers() - 1;
            if (i > stages.size() && conf.getInputPreProcess(i) != null) {
                throw new IllegalArgumentException("layer " + i + " has a preprocessor the CUDA engine does not run");
            }
            if (output ? !(layer instanceof OutputLayer) : !(layer.getClass() == DenseLayer.class)) {
                throw new IllegalArgumentException("layer " + i + " (" + layer.getClass().getSimpleName() + ") follows the"
                        + " convolutional part; the CUDA engine computes dense layers there and an OutputLayer last");
            }
            org.deeplearning4j.nn.conf.layers.FeedForwardLayer ff = (org.deeplearning4j.nn.conf.layers.FeedForwardLayer) layer;
            Activation f = Activation.IDENTITY;
            if (!output) {
                HostActivation h = HostActivation.of(ff.getActivationFn());
                if (h == null) {
                    throw new IllegalArgumentException("layer " + i + "'s activation " + ff.getActivationFn() + " has no CUDA"
                            + " kernel (identity, ReLU, leaky ReLU, tanh and sigmoid have)");
                }
                f = DenseModels.activation(h);
            }
            dense.add(new org.dpdl4j.cuda.engine.DenseLayer((int) ff.getNIn(), (int) ff.getNOut(), f, hasBias(ff),
                    offset(net, i, "W")));
        }
        OutputLayer out = (OutputLayer) conf.getConf(net.getnLayers() - 1).getLayer();
        HostOutputLoss loss = HostOutputLoss.of(out.getActivationFn(), out.getLossFn());
        if (loss == null) {
            throw new IllegalArgumentException("the output layer's activation " + out.getActivationFn() + " with loss "
                    + out.getLossFn() + " has no CUDA kernel (softmax with MCXENT, sigmoid with XENT, and L2/MSE after a"
                    + " supported activation have)");
        }
        return new ConvNetModel(stages, dense, DenseModels.loss(loss), net.numParams());
    }

    private static ConvNetModel.Stage stage(MultiLayerNetwork net, int i, Layer layer, int c, int h, int w) {
        if (layer.getClass() == ConvolutionLayer.class) {
            ConvolutionLayer conv = (ConvolutionLayer) layer;
            if (conv.getCnn2dDataFormat() != CNN2DFormat.NCHW) {
                throw new IllegalArgumentException("convolution layer " + i + " is " + conv.getCnn2dDataFormat()
                        + "; the CUDA engine computes NCHW");
            }
            HostActivation f = HostActivation.of(conv.getActivationFn());
            if (f == null) {
                throw new IllegalArgumentException("convolution layer " + i + "'s activation " + conv.getActivationFn()
                        + " has no CUDA kernel (identity, ReLU, leaky ReLU, tanh and sigmoid have)");
            }
            ConvShape shape = shape("convolution layer " + i, c, h, w, (int) conv.getNOut(), conv.getKernelSize(),
                    conv.getStride(), conv.getPadding(), conv.getDilation(), conv.getConvolutionMode());
            long weights = offset(net, i, "W");
            long bias = conv.hasBias() ? offset(net, i, "b") : 0;
            return new ConvNetModel.Convolution(shape, DenseModels.activation(f), conv.hasBias(), weights, bias);
        }
        if (layer.getClass() == SubsamplingLayer.class) {
            SubsamplingLayer pool = (SubsamplingLayer) layer;
            if (pool.getPoolingType() != PoolingType.MAX) {
                throw new IllegalArgumentException("pooling layer " + i + " is " + pool.getPoolingType() + " pooling; the"
                        + " CUDA engine computes max pooling");
            }
            if (pool.getCnn2dDataFormat() != CNN2DFormat.NCHW) {
                throw new IllegalArgumentException("pooling layer " + i + " is " + pool.getCnn2dDataFormat()
                        + "; the CUDA engine computes NCHW");
            }
            return new ConvNetModel.MaxPooling(shape("pooling layer " + i, c, h, w, c, pool.getKernelSize(),
                    pool.getStride(), pool.getPadding(), pool.getDilation(), pool.getConvolutionMode()));
        }
        throw new IllegalArgumentException("layer " + i + " (" + layer.getClass().getSimpleName() + ") has no CUDA"
                + " computation (2-D convolutions, max pooling, dense layers and an output layer have)");
    }

    /** The geometry as cuDNN takes it: dilation 1, the same padding on both sides (Same mode when its total is even). */
    private static ConvShape shape(String where, int c, int h, int w, int outC, int[] kernel, int[] stride, int[] padding,
                                   int[] dilation, ConvolutionMode mode) {
        if (dilation != null && (dilation[0] != 1 || dilation[1] != 1)) {
            throw new IllegalArgumentException(where + " is dilated; the CUDA engine computes dilation 1");
        }
        int padH = padding[0];
        int padW = padding[1];
        if (mode == ConvolutionMode.Same) {
            int totalH = Math.max(0, ((h + stride[0] - 1) / stride[0] - 1) * stride[0] + kernel[0] - h);
            int totalW = Math.max(0, ((w + stride[1] - 1) / stride[1] - 1) * stride[1] + kernel[1] - w);
            if (totalH % 2 != 0 || totalW % 2 != 0) {
                throw new IllegalArgumentException(where + ": Same mode pads " + totalH + "x" + totalW + " here, more at the"
                        + " bottom or right than at the top or left, which cuDNN does not take; use ConvolutionMode.Truncate"
                        + " with explicit padding, or --device cpu");
            }
            padH = totalH / 2;
            padW = totalW / 2;
        } else if (mode != ConvolutionMode.Truncate && mode != ConvolutionMode.Strict) {
            throw new IllegalArgumentException(where + " uses ConvolutionMode." + mode + "; the CUDA engine computes Truncate,"
                    + " Strict and Same");
        }
        try {
            return new ConvShape(c, h, w, outC, kernel[0], kernel[1], stride[0], stride[1], padH, padW);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static boolean hasBias(org.deeplearning4j.nn.conf.layers.FeedForwardLayer layer) {
        return layer instanceof DenseLayer d ? d.hasBias() : ((BaseOutputLayer) layer).hasBias();
    }

    /** Where a layer's parameter starts in the network's flat parameters (from the host address of its view of them). */
    private static long offset(MultiLayerNetwork net, int layer, String param) {
        INDArray view = net.getLayer(layer).getParam(param);
        INDArray flat = net.params();
        long bytes = view == null ? -1 : address(view) - address(flat);
        long at = bytes / Float.BYTES;
        if (view == null || bytes % Float.BYTES != 0 || at < 0 || at + view.length() > flat.length()) {
            throw new IllegalArgumentException("layer " + layer + "'s parameter " + param + " is not a view of the network's"
                    + " flat parameters");
        }
        return at;
    }

    /** The host address of an array's first element (a view's buffer starts at the view). */
    private static long address(INDArray a) {
        return a.data().addressPointer().address();
    }
}
