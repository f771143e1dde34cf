package org.dpdl4j.attacks.network;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.deeplearning4j.nn.conf.CNN2DFormat;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.BaseLayer;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.FeedForwardLayer;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.preprocessor.CnnToFeedForwardPreProcessor;
import org.deeplearning4j.nn.conf.preprocessor.FeedForwardToCnnPreProcessor;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.nn.ConvolutionGeometry;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * A frozen copy of a DL4J {@link MultiLayerNetwork} as gradient matching sees it: its stages (dense or
 * convolution, each with an activation), its output head, and its parameters at the moment of the copy (the
 * weights at the time of the observed release). It also maps vectors laid out like the network's flattened
 * parameters (gradients, updates) onto the stages.
 *
 * <p>Supported: flat input rows; {@code DenseLayer}s; 2-D {@code ConvolutionLayer}s in NCHW fed through DL4J's
 * feed-forward/CNN preprocessors (the layout of {@code InputType.convolutionalFlat}); a final {@code OutputLayer}
 * with softmax + MCXENT or sigmoid + XENT. Hidden activations: {@value StageActivation#SUPPORTED}. Anything
 * else (pooling, batch normalisation, dropout, weight noise, other layers) is refused with
 * {@link UnsupportedModelException}.
 */
public final class TargetNetwork {
    private final List<Stage> stages;
    private final OutputHead head;
    private final long inputSize;
    private final long numParams;
    private final DataType dataType;
    private final List<NeuralNetConfiguration> layerConfigurations;
    private final long[] parameterOffsets;
    private final long[] parameterCounts;

    private TargetNetwork(List<Stage> stages, OutputHead head, long inputSize, DataType dataType,
                          List<NeuralNetConfiguration> layerConfigurations, long[] parameterOffsets,
                          long[] parameterCounts) {
        this.stages = List.copyOf(stages);
        this.head = head;
        this.inputSize = inputSize;
        this.dataType = dataType;
        this.layerConfigurations = List.copyOf(layerConfigurations);
        this.parameterOffsets = parameterOffsets;
        this.parameterCounts = parameterCounts;
        this.numParams = Arrays.stream(parameterCounts).sum();
    }

    /**
     * Copies the structure and current parameters of an initialised network.
     *
     * @throws UnsupportedModelException naming the first layer, preprocessor or setting that is not supported
     */
    public static TargetNetwork of(MultiLayerNetwork net) {
        Objects.requireNonNull(net, "network must not be null");
        if (net.params() == null || net.params().isEmpty()) {
            throw new IllegalArgumentException("network has no parameters: call net.init() before attacking it");
        }
        MultiLayerConfiguration conf = net.getLayerWiseConfigurations();
        int n = conf.getConfs().size();
        List<Stage> stages = new ArrayList<>();
        List<NeuralNetConfiguration> confs = new ArrayList<>();
        long[] offsets = new long[n];
        long[] counts = new long[n];
        Representation current = null;
        long inputSize = -1;
        OutputHead head = null;
        long offset = 0;
        for (int i = 0; i < n; i++) {
            NeuralNetConfiguration layerConf = conf.getConf(i);
            Layer layer = layerConf.getLayer();
            String where = "layer " + i + " (" + layer.getClass().getSimpleName()
                    + (layer.getLayerName() == null || layer.getLayerName().equals("layer" + i) ? ""
                    : " '" + layer.getLayerName() + "'") + ")";
            confs.add(layerConf);
            offsets[i] = offset;
            counts[i] = net.getLayer(i).numParams();
            offset += counts[i];
            rejectStochastic(layer, where);

            InputPreProcessor pre = conf.getInputPreProcess(i);
            if (pre != null) {
                current = applyPreprocessor(pre, current, where);
            }
            if (i == 0) {
                if (current == null) {
                    if (!(layer instanceof FeedForwardLayer first)) {
                        throw new UnsupportedModelException(where + ": the first layer must be a feed-forward layer"
                                + " taking flat rows");
                    }
                    current = Representation.flat(first.getNIn());
                }
                inputSize = current.size();
            }
            boolean last = i == n - 1;
            boolean supported = layer.getClass() == DenseLayer.class || layer.getClass() == OutputLayer.class
                    || layer.getClass() == ConvolutionLayer.class;
            if (!supported) {
                throw new UnsupportedModelException(where + ": layer type " + layer.getClass().getSimpleName()
                        + " is not supported by gradient matching; supported: DenseLayer, ConvolutionLayer (2-D, NCHW),"
                        + " and a final OutputLayer");
            }
            INDArray weights = net.getLayer(i).getParam("W").dup();
            INDArray b = hasBias(layer) ? net.getLayer(i).getParam("b") : null;
            INDArray bias = b == null ? null : b.reshape(1, b.length()).dup();
            if (layer.getClass() == DenseLayer.class) {
                if (last) {
                    throw new UnsupportedModelException(where + ": the last layer must be an OutputLayer with a loss");
                }
                DenseLayer dense = (DenseLayer) layer;
                requireFlat(current, dense.getNIn(), where);
                stages.add(new DenseStage(i, weights, bias, StageActivation.of(dense.getActivationFn(), where)));
                current = Representation.flat(dense.getNOut());
            } else if (layer.getClass() == OutputLayer.class) {
                if (!last) {
                    throw new UnsupportedModelException(where + ": an OutputLayer must be the last layer");
                }
                OutputLayer output = (OutputLayer) layer;
                requireFlat(current, output.getNIn(), where);
                head = OutputHead.of(output, where);
                stages.add(new DenseStage(i, weights, bias, StageActivation.IDENTITY));
                current = Representation.flat(output.getNOut());
            } else {
                if (last) {
                    throw new UnsupportedModelException(where + ": the last layer must be an OutputLayer with a loss");
                }
                ConvolutionLayer convolution = (ConvolutionLayer) layer;
                ConvolutionGeometry geometry = geometry(convolution, current, where);
                stages.add(new ConvolutionStage(i, weights, bias,
                        StageActivation.of(convolution.getActivationFn(), where), geometry));
                current = Representation.image(geometry.outChannels(), geometry.outHeight(), geometry.outWidth());
            }
        }
        if (head == null) {
            throw new UnsupportedModelException("the network has no OutputLayer; gradient matching needs the loss of"
                    + " an OutputLayer (softmax + MCXENT or sigmoid + XENT) as its last layer");
        }
        return new TargetNetwork(stages, head, inputSize, net.params().dataType(), confs, offsets, counts);
    }

    private static void rejectStochastic(Layer layer, String where) {
        if (layer.getIDropout() != null) {
            throw new UnsupportedModelException(where + ": dropout makes the observed gradient random; gradient"
                    + " matching needs a deterministic forward pass. Remove dropout from the attacked model");
        }
        if (layer instanceof BaseLayer base && base.getWeightNoise() != null) {
            throw new UnsupportedModelException(where + ": weight noise makes the observed gradient random; remove it"
                    + " from the attacked model");
        }
    }

    private static boolean hasBias(Layer layer) {
        if (layer instanceof DenseLayer d) {
            return d.hasBias();
        }
        if (layer instanceof OutputLayer o) {
            return o.hasBias();
        }
        if (layer instanceof ConvolutionLayer c) {
            return c.hasBias();
        }
        return false;
    }

    private static Representation applyPreprocessor(InputPreProcessor pre, Representation current, String where) {
        if (pre instanceof FeedForwardToCnnPreProcessor f) {
            long size = f.getNumChannels() * f.getInputHeight() * f.getInputWidth();
            if (current != null) {
                requireFlat(current, size, where + " preprocessor");
            }
            return Representation.image(f.getNumChannels(), f.getInputHeight(), f.getInputWidth());
        }
        if (pre instanceof CnnToFeedForwardPreProcessor c) {
            if (c.getFormat() != CNN2DFormat.NCHW) {
                throw new UnsupportedModelException(where + ": only NCHW convolution layouts are supported, got "
                        + c.getFormat());
            }
            if (current == null || !current.isImage()) {
                throw new UnsupportedModelException(where + ": a CNN-to-dense preprocessor needs convolution output"
                        + " before it");
            }
            return Representation.flat(current.size());
        }
        throw new UnsupportedModelException(where + ": input preprocessor " + pre.getClass().getSimpleName()
                + " is not supported; only the feed-forward/CNN preprocessors of InputType.convolutionalFlat are");
    }

    private static void requireFlat(Representation current, long expected, String where) {
        if (current == null || current.isImage()) {
            throw new UnsupportedModelException(where + ": expects flat input but receives images; add a"
                    + " CnnToFeedForwardPreProcessor (InputType.convolutionalFlat does this)");
        }
        if (current.size() != expected) {
            throw new UnsupportedModelException(where + ": expects " + expected + " inputs but the previous layer"
                    + " gives " + current.size());
        }
    }

    private static ConvolutionGeometry geometry(ConvolutionLayer layer, Representation current, String where) {
        if (current == null || !current.isImage()) {
            throw new UnsupportedModelException(where + ": a convolution needs image input; configure the network with"
                    + " InputType.convolutionalFlat(height, width, channels)");
        }
        if (layer.getCnn2dDataFormat() != CNN2DFormat.NCHW) {
            throw new UnsupportedModelException(where + ": only NCHW is supported, got " + layer.getCnn2dDataFormat());
        }
        if (layer.getNIn() != current.channels()) {
            throw new UnsupportedModelException(where + ": expects " + layer.getNIn() + " input channels, receives "
                    + current.channels());
        }
        int[] k = layer.getKernelSize();
        int[] s = layer.getStride();
        int[] d = layer.getDilation();
        int[] p = layer.getPadding();
        int inH = (int) current.height();
        int inW = (int) current.width();
        int effH = (k[0] - 1) * d[0] + 1;
        int effW = (k[1] - 1) * d[1] + 1;
        int outH;
        int outW;
        int padTop;
        int padLeft;
        ConvolutionMode mode = layer.getConvolutionMode();
        if (mode == ConvolutionMode.Same) {
            outH = (inH + s[0] - 1) / s[0];
            outW = (inW + s[1] - 1) / s[1];
            padTop = Math.max(0, ((outH - 1) * s[0] + effH - inH) / 2);
            padLeft = Math.max(0, ((outW - 1) * s[1] + effW - inW) / 2);
        } else if (mode == ConvolutionMode.Truncate || mode == ConvolutionMode.Strict) {
            outH = (inH + 2 * p[0] - effH) / s[0] + 1;
            outW = (inW + 2 * p[1] - effW) / s[1] + 1;
            padTop = p[0];
            padLeft = p[1];
        } else {
            throw new UnsupportedModelException(where + ": convolution mode " + mode + " is not supported; use"
                    + " Truncate, Strict or Same");
        }
        return new ConvolutionGeometry((int) layer.getNIn(), inH, inW, (int) layer.getNOut(), k[0], k[1], s[0], s[1],
                d[0], d[1], padTop, padLeft, outH, outW);
    }

    /** The stages, input side first; the last one produces the logits. */
    public List<Stage> stages() {
        return stages;
    }

    /** The output activation and loss. */
    public OutputHead head() {
        return head;
    }

    /** Length of one flat input row. */
    public long inputSize() {
        return inputSize;
    }

    /** Number of outputs (classes for softmax, independent outputs for sigmoid). */
    public long outputSize() {
        return stages.get(stages.size() - 1).outputSize();
    }

    /** Total number of parameters, the length of the network's flattened parameter vector. */
    public long numParams() {
        return numParams;
    }

    /** Data type of the network's parameters. */
    public DataType dataType() {
        return dataType;
    }

    /** Whether every stage is dense (MLPs, logistic and softmax regression). */
    public boolean isDenseOnly() {
        return stages.stream().allMatch(s -> s instanceof DenseStage);
    }

    /**
     * Splits a vector laid out like the network's flattened parameters (a gradient, an update) into per-stage
     * parts with the stages' shapes, using DL4J's own parameter layout. The parts are copies.
     *
     * @param flat vector of length {@link #numParams()} (any shape with that many elements)
     */
    public List<LayerGradient> split(INDArray flat) {
        Objects.requireNonNull(flat, "flat vector must not be null");
        if (flat.length() != numParams) {
            throw new IllegalArgumentException("vector has " + flat.length() + " entries but the network has "
                    + numParams + " parameters; pass a vector laid out like net.params()");
        }
        INDArray row = flat.dup('c').reshape(1, numParams);
        List<LayerGradient> parts = new ArrayList<>(stages.size());
        for (Stage stage : stages) {
            int i = stage.layerIndex();
            INDArray slice = row.get(NDArrayIndex.point(0),
                    NDArrayIndex.interval(parameterOffsets[i], parameterOffsets[i] + parameterCounts[i]))
                    .reshape(1, parameterCounts[i]);
            NeuralNetConfiguration conf = layerConfigurations.get(i);
            Map<String, INDArray> views = conf.getLayer().initializer().getGradientsFromFlattened(conf, slice);
            INDArray w = views.get("W").dup();
            INDArray b = views.get("b");
            parts.add(new LayerGradient(w.reshape(stage.weights().shape()),
                    b == null ? null : b.reshape(1, b.length()).dup()));
        }
        return parts;
    }

    /** Inverse of {@link #split}: lays per-stage parts out like the network's flattened parameters. */
    public INDArray flatten(List<LayerGradient> parts) {
        Objects.requireNonNull(parts, "parts must not be null");
        if (parts.size() != stages.size()) {
            throw new IllegalArgumentException("expected " + stages.size() + " parts (one per stage), got "
                    + parts.size());
        }
        INDArray flat = Nd4j.zeros(parts.get(0).weights().dataType(), 1, numParams);
        for (int s = 0; s < stages.size(); s++) {
            int i = stages.get(s).layerIndex();
            INDArray slice = flat.get(NDArrayIndex.point(0),
                    NDArrayIndex.interval(parameterOffsets[i], parameterOffsets[i] + parameterCounts[i]));
            NeuralNetConfiguration conf = layerConfigurations.get(i);
            Map<String, INDArray> views = conf.getLayer().initializer().getGradientsFromFlattened(conf, slice);
            LayerGradient part = parts.get(s);
            views.get("W").assign(part.weights().reshape(views.get("W").shape()));
            if (part.hasBias()) {
                views.get("b").assign(part.bias().reshape(views.get("b").shape()));
            }
        }
        return flat;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("TargetNetwork[input ").append(inputSize);
        for (Stage s : stages) {
            sb.append(" -> ").append(s instanceof ConvolutionStage c ? "conv" + c.geometry().outChannels() + "@"
                    + c.geometry().outHeight() + "x" + c.geometry().outWidth() : "dense" + s.outputSize())
                    .append('(').append(s.activation().name().toLowerCase(java.util.Locale.ROOT)).append(')');
        }
        return sb.append(" -> ").append(head).append(", ").append(numParams).append(" params]").toString();
    }

    /** What flows between layers while the structure is read: a flat row or an NCHW image. */
    private record Representation(long channels, long height, long width, boolean isImage) {
        static Representation flat(long size) {
            return new Representation(size, 1, 1, false);
        }

        static Representation image(long channels, long height, long width) {
            return new Representation(channels, height, width, true);
        }

        long size() {
            return channels * height * width;
        }
    }
}
