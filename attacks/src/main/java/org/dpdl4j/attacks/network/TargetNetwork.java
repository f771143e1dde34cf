package org.dpdl4j.attacks.network;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.nn.LayerDescription;
import org.dpdl4j.nn.ModelDescription;
import org.dpdl4j.nn.ModelProblem;
import org.dpdl4j.nn.ModelReader;
import org.dpdl4j.nn.UnsupportedModelException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A frozen copy of a DL4J {@link MultiLayerNetwork} as gradient matching sees it: its stages (dense or
 * convolution, each with an activation), its output head, and its parameters at the moment of the copy (the
 * weights at the time of the observed release). It also maps vectors laid out like the network's flattened
 * parameters (gradients, updates) onto the stages.
 *
 * <p>The structure comes from the core's {@link ModelReader}: its problems are refused here, together with the
 * activations and output heads that gradient matching cannot differentiate. Supported:
 * flat input rows; {@code DenseLayer}s; 2-D {@code ConvolutionLayer}s in NCHW fed through DL4J's
 * feed-forward/CNN preprocessors (the layout of {@code InputType.convolutionalFlat}); a final {@code OutputLayer}
 * with softmax + MCXENT, sigmoid + XENT or identity + half squared error; max or average pooling right after a
 * convolution (it joins that convolution's stage). Hidden activations: {@value StageActivation#SUPPORTED}. Anything
 * else (pooling elsewhere, batch normalisation, dropout, weight noise, layer normalisation, other layers) is refused with
 * {@link UnsupportedModelException}, which lists every problem found.
 */
public final class TargetNetwork {
    private static final String REFUSAL = "Gradient matching cannot attack this network";
    private static final String SUPPORTED = "Supported: DenseLayers and 2-D ConvolutionLayers (NCHW, through"
            + " InputType.convolutionalFlat), each convolution optionally followed by a max or average SubsamplingLayer,"
            + " with activations " + StageActivation.SUPPORTED
            + ", then one OutputLayer with SOFTMAX + MCXENT, SIGMOID + XENT or IDENTITY + LossHalfSquaredError; no dropout, weight noise or layer normalization.";

    private final List<Stage> stages;
    private final OutputHead head;
    private final ModelDescription model;
    private final DataType dataType;

    private TargetNetwork(List<Stage> stages, OutputHead head, ModelDescription model, DataType dataType) {
        this.stages = List.copyOf(stages);
        this.head = head;
        this.model = model;
        this.dataType = dataType;
    }

    /**
     * Copies the structure and current parameters of an initialised network.
     *
     * @throws UnsupportedModelException listing every layer, preprocessor or setting that is not supported
     */
    public static TargetNetwork of(MultiLayerNetwork net) {
        Objects.requireNonNull(net, "network must not be null");
        if (net.params() == null || net.params().isEmpty()) {
            throw new IllegalArgumentException("network has no parameters: call net.init() before attacking it");
        }
        ModelDescription model = ModelReader.read(net);
        List<ModelProblem> problems = new ArrayList<>(model.problems());
        List<Stage> stages = new ArrayList<>();
        OutputHead head = null;
        for (LayerDescription layer : model.layers()) {
            switch (layer.kind()) {
                case DENSE -> {
                    StageActivation activation = StageActivation.of(layer, problems);
                    if (activation != null) {
                        stages.add(new DenseStage(layer.index(), weights(net, layer), bias(net, layer), activation));
                    }
                }
                case CONVOLUTION_2D -> {
                    StageActivation activation = StageActivation.of(layer, problems);
                    if (activation != null && layer.convolution() != null) {
                        stages.add(new ConvolutionStage(layer.index(), weights(net, layer), bias(net, layer),
                                activation, layer.convolution()));
                    }
                }
                case SUBSAMPLING_2D -> {
                    Stage before = stages.isEmpty() ? null : stages.get(stages.size() - 1);
                    boolean follows = before instanceof ConvolutionStage c && !c.isPooled()
                            && before.layerIndex() == layer.index() - 1;
                    if (!follows) {
                        problems.add(layer.problem("pooling is supported directly after a convolution only",
                                "place the pooling layer right after a ConvolutionLayer"));
                    } else if (layer.pooling() != null) {
                        stages.set(stages.size() - 1, ((ConvolutionStage) before).withPooling(layer.pooling()));
                    }
                }
                case OUTPUT -> {
                    head = OutputHead.of(layer, problems);
                    stages.add(new DenseStage(layer.index(), weights(net, layer), bias(net, layer),
                            StageActivation.IDENTITY));
                }
                case UNSUPPORTED -> {
                    // The reader has filed the problem.
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new UnsupportedModelException(REFUSAL, problems, SUPPORTED);
        }
        return new TargetNetwork(stages, head, model, net.params().dataType());
    }

    private static INDArray weights(MultiLayerNetwork net, LayerDescription layer) {
        return net.getLayer(layer.index()).getParam("W").dup();
    }

    private static INDArray bias(MultiLayerNetwork net, LayerDescription layer) {
        if (!layer.hasBias()) {
            return null;
        }
        INDArray b = net.getLayer(layer.index()).getParam("b");
        return b.reshape(1, b.length()).dup();
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
        return model.inputSize();
    }

    /** Number of outputs (classes for softmax, independent outputs for sigmoid). */
    public long outputSize() {
        return stages.get(stages.size() - 1).outputSize();
    }

    /** Total number of parameters, the length of the network's flattened parameter vector. */
    public long numParams() {
        return model.numParams();
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
        if (flat.length() != numParams()) {
            throw new IllegalArgumentException("vector has " + flat.length() + " entries but the network has "
                    + numParams() + " parameters; pass a vector laid out like net.params()");
        }
        INDArray row = flat.dup('c').reshape(1, numParams());
        List<LayerGradient> parts = new ArrayList<>(stages.size());
        for (Stage stage : stages) {
            Map<String, INDArray> views = model.layers().get(stage.layerIndex()).parameterViews(row);
            INDArray b = views.get("b");
            parts.add(new LayerGradient(views.get("W").dup().reshape(stage.weights().shape()),
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
        INDArray flat = Nd4j.zeros(parts.get(0).weights().dataType(), 1, numParams());
        for (int s = 0; s < stages.size(); s++) {
            Map<String, INDArray> views = model.layers().get(stages.get(s).layerIndex()).parameterViews(flat);
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
        StringBuilder sb = new StringBuilder("TargetNetwork[input ").append(inputSize());
        for (Stage s : stages) {
            sb.append(" -> ").append(s instanceof ConvolutionStage c ? "conv" + c.geometry().outChannels() + "@"
                    + c.geometry().outHeight() + "x" + c.geometry().outWidth()
                    + (c.isPooled() ? "+" + c.pooling().kind().name().toLowerCase(java.util.Locale.ROOT) + "pool@"
                    + c.pooling().outHeight() + "x" + c.pooling().outWidth() : "") : "dense" + s.outputSize())
                    .append('(').append(s.activation().name().toLowerCase(java.util.Locale.ROOT)).append(')');
        }
        return sb.append(" -> ").append(head).append(", ").append(numParams()).append(" params]").toString();
    }
}
