package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.BackpropType;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.graph.vertex.GraphVertex;
import org.deeplearning4j.nn.graph.vertex.VertexIndices;
import org.deeplearning4j.nn.graph.vertex.impl.LayerVertex;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.nn.ModelProblem;
import org.dpdl4j.nn.UnsupportedModelException;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.ExampleGradients;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Per-example clipping of any network built from the layers of an {@link ExampleLayerRegistry}: a
 * {@link MultiLayerNetwork} (a chain) or a {@link ComputationGraph} (a DAG of layers and per-example vertices).
 *
 * <p>One step is one batched pass: the forward pass through every layer, the backward pass from the losses (each
 * layer keeps its input and output-side error), each layer's share of every example's squared gradient norm, the
 * clipping factors {@code c_i = min(1, C / ||g_i||)}, and each layer's sum of its examples' gradients scaled by
 * {@code c_i}. No per-example gradient of the whole network is formed and nothing loops over examples.
 *
 * <p>The gradient is that of the <i>sum</i> of the per-example losses (over all outputs of a graph); dividing by
 * the batch size is left to the caller, as in {@link org.dpdl4j.optim.PerExampleGradients}.
 */
public final class LayeredGradients implements ExampleGradients {
    private static final String REFUSAL = "This network cannot be trained with per-example clipping";

    /** One step of the pass: a layer or a vertex, reading the given value slots. */
    private record Node(ExampleLayer layer, VertexStage vertex, int[] inputs, boolean inputGradient) {
    }

    private final List<Node> nodes;
    private final int networkInputs;
    /** For each network output, the index of the node whose loss it is. */
    private final int[] outputs;
    private final List<ExampleLayer> parameterised;
    private final DataType dataType;
    private final long numParams;

    private LayeredGradients(List<Node> nodes, int networkInputs, int[] outputs, DataType dataType, long numParams) {
        this.nodes = List.copyOf(nodes);
        this.networkInputs = networkInputs;
        this.outputs = outputs.clone();
        this.parameterised = nodes.stream().map(Node::layer).filter(l -> l != null && l.hasParameters()).toList();
        this.dataType = dataType;
        this.numParams = numParams;
    }

    /** The engine for a network of the standard layers. */
    public static LayeredGradients of(MultiLayerNetwork net) {
        return of(net, ExampleLayerRegistry.standard());
    }

    /**
     * The engine for a network whose layers {@code registry} handles.
     *
     * @throws UnsupportedModelException listing every layer and option that cannot be clipped per example
     */
    public static LayeredGradients of(MultiLayerNetwork net, ExampleLayerRegistry registry) {
        MultiLayerConfiguration conf = net.getLayerWiseConfigurations();
        Builder b = new Builder(registry, net, conf.getDataType(), 1, conf.getBackpropType());
        int slot = 0;
        long offset = 0;
        int count = conf.getConfs().size();
        for (int i = 0; i < count; i++) {
            NeuralNetConfiguration layerConf = conf.getConf(i);
            InputPreProcessor pre = conf.getInputPreProcess(i);
            if (pre != null) {
                slot = b.add(new PreprocessorStage(pre), new int[]{slot});
            }
            org.deeplearning4j.nn.api.Layer impl = net.getLayer(i);
            long n = impl.numParams();
            slot = b.addLayer(i, label(i, layerConf), layerConf, impl, offset, n, new int[]{slot});
            offset += n;
        }
        b.outputs(new int[]{b.nodeCount() - 1});
        return b.build(net.numParams());
    }

    /** The engine for a graph of the standard layers and per-example vertices. */
    public static LayeredGradients of(ComputationGraph graph) {
        return of(graph, ExampleLayerRegistry.standard());
    }

    /**
     * The engine for a graph whose layers {@code registry} handles and whose other vertices act on each example on
     * its own (merge, element-wise, subset, scale, shift, L2, preprocessor).
     *
     * @throws UnsupportedModelException listing every layer, vertex and option that cannot be clipped per example
     */
    public static LayeredGradients of(ComputationGraph graph, ExampleLayerRegistry registry) {
        ComputationGraphConfiguration conf = graph.getConfiguration();
        List<String> inputs = conf.getNetworkInputs();
        Builder b = new Builder(registry, graph, conf.getDataType(), inputs.size(), conf.getBackpropType());
        GraphVertex[] vertices = graph.getVertices();
        int[] slotOf = new int[vertices.length];
        long offset = 0;
        for (int index : graph.topologicalSortOrder()) {
            GraphVertex v = vertices[index];
            if (v.isInputVertex()) {
                slotOf[index] = inputs.indexOf(v.getVertexName());
                continue;
            }
            VertexIndices[] from = v.getInputVertices();
            int[] in = new int[from.length];
            for (int k = 0; k < from.length; k++) {
                in[k] = slotOf[from[k].getVertexIndex()];
            }
            String label = "vertex \"" + v.getVertexName() + "\"";
            if (v.hasLayer()) {
                LayerVertex layerVertex = (LayerVertex) v;
                int slot = in[0];
                if (layerVertex.getLayerPreProcessor() != null) {
                    slot = b.add(new PreprocessorStage(layerVertex.getLayerPreProcessor()), new int[]{slot});
                }
                org.deeplearning4j.nn.api.Layer impl = v.getLayer();
                long n = impl.numParams();
                String layerLabel = label + " (" + impl.conf().getLayer().getClass().getSimpleName() + ")";
                slotOf[index] = b.addLayer(index, layerLabel, impl.conf(), impl, offset, n, new int[]{slot});
                offset += n;
            } else {
                org.deeplearning4j.nn.conf.graph.GraphVertex vertexConf = conf.getVertices().get(v.getVertexName());
                String refusal = VertexStage.refusal(vertexConf);
                if (refusal != null) {
                    b.problem(new ModelProblem(index, label, refusal, "use merge, element-wise, subset, scale, shift,"
                            + " L2 or preprocessor vertices acting on each example on its own"));
                    slotOf[index] = b.add(null, in);
                } else {
                    slotOf[index] = b.add(new VertexStage(v), in);
                }
            }
        }
        List<String> outputNames = conf.getNetworkOutputs();
        int[] outputNodes = new int[outputNames.size()];
        for (int k = 0; k < outputNodes.length; k++) {
            outputNodes[k] = slotOf[graph.getVertex(outputNames.get(k)).getVertexIndex()] - inputs.size();
        }
        b.outputs(outputNodes);
        return b.build(graph.numParams());
    }

    private static String label(int index, NeuralNetConfiguration conf) {
        String name = conf.getLayer().getLayerName();
        boolean named = name != null && !name.equals("layer" + index);
        return "layer " + index + " (" + conf.getLayer().getClass().getSimpleName() + (named ? " \"" + name + "\"" : "") + ")";
    }

    /** Collects nodes and problems, then checks the whole network once. */
    private static final class Builder {
        private final ExampleLayerRegistry registry;
        private final DataType dataType;
        private final int networkInputs;
        private final List<ExampleLayer> layers = new ArrayList<>();
        private final List<VertexStage> vertices = new ArrayList<>();
        private final List<int[]> inputs = new ArrayList<>();
        private final List<ModelProblem> problems = new ArrayList<>();
        private int[] outputs = new int[0];

        /** Starts a network: checks it is initialised, and files the problems of the network as a whole. */
        Builder(ExampleLayerRegistry registry, org.deeplearning4j.nn.api.Model network, DataType dataType, int networkInputs,
                BackpropType backprop) {
            this.registry = Objects.requireNonNull(registry, "registry");
            if (network.params() == null || network.params().length() != network.numParams()) {
                throw new IllegalStateException("the network is not initialised; call init() before building its"
                        + " per-example gradient engine");
            }
            this.dataType = dataType;
            this.networkInputs = networkInputs;
            if (backprop != BackpropType.Standard) {
                problems.add(ModelProblem.network("backprop type " + backprop, "only Standard backprop is supported"));
            }
            if (dataType != DataType.FLOAT && dataType != DataType.DOUBLE) {
                problems.add(ModelProblem.network("data type " + dataType, "use FLOAT or DOUBLE"));
            }
        }

        void problem(ModelProblem p) {
            problems.add(p);
        }

        int nodeCount() {
            return layers.size();
        }

        /** Adds a node; returns the slot of its output. */
        int add(Object stage, int[] in) {
            layers.add(stage instanceof ExampleLayer l ? l : null);
            vertices.add(stage instanceof VertexStage v ? v : null);
            inputs.add(in);
            return networkInputs + layers.size() - 1;
        }

        int addLayer(int index, String label, NeuralNetConfiguration conf, org.deeplearning4j.nn.api.Layer impl,
                     long offset, long count, int[] in) {
            LayerContext context = new LayerContext(index, label, conf, impl, new ParameterSlots(conf, offset, count), dataType);
            ExampleLayer layer = registry.create(context, problems);
            return add(layer, in);
        }

        void outputs(int[] nodeIndices) {
            this.outputs = nodeIndices;
        }

        LayeredGradients build(long numParams) {
            for (int k = 0; k < layers.size(); k++) {
                int node = k;
                boolean isOutput = Arrays.stream(outputs).anyMatch(o -> o == node);
                ExampleLayer layer = layers.get(k);
                if (isOutput && layer != null && !(layer instanceof ExampleLoss)) {
                    problems.add(ModelProblem.network("network output " + k + " is not a loss layer",
                            "end every output with an OutputLayer or a LossLayer"));
                }
                if (!isOutput && layer instanceof ExampleLoss) {
                    problems.add(ModelProblem.network("a loss layer is not a network output",
                            "use a DenseLayer inside the network; losses end it"));
                }
            }
            if (!problems.isEmpty()) {
                throw new UnsupportedModelException(REFUSAL, problems, "Supported layers: "
                        + registry.supported().stream().map(Class::getSimpleName).sorted().toList()
                        + " and input preprocessors; per-example vertices in graphs; per-example losses; FLOAT or DOUBLE.");
            }
            // A node needs its input gradient only when some layer with parameters lies behind it.
            boolean[] behind = new boolean[networkInputs + layers.size()];
            List<Node> nodes = new ArrayList<>();
            for (int k = 0; k < layers.size(); k++) {
                boolean need = false;
                for (int s : inputs.get(k)) {
                    need |= behind[s];
                }
                ExampleLayer layer = layers.get(k);
                behind[networkInputs + k] = need || (layer != null && layer.hasParameters());
                nodes.add(new Node(layer, vertices.get(k), inputs.get(k), need));
            }
            return new LayeredGradients(nodes, networkInputs, outputs, dataType, numParams);
        }
    }

    @Override
    public ClippedBatch sumClipped(INDArray params, INDArray features, INDArray labels, INDArray featureSquaredNorms,
                                   double clipNorm, INDArray gradOut) {
        return clippedSum(params, new INDArray[]{features}, new INDArray[]{labels}, clipNorm, gradOut);
    }

    /**
     * Computes the clipped gradient sum of a batch into {@code gradOut}.
     *
     * @param params   the network's flattened parameters
     * @param features one array per network input, examples along dimension 0
     * @param labels   one array per network output
     * @param clipNorm C &gt; 0, or infinity for no clipping
     * @param gradOut  laid out like {@code params}; overwritten
     * @return per-example norms ([b], null without clipping) and the loss sum ([1])
     */
    public ClippedBatch clippedSum(INDArray params, INDArray[] features, INDArray[] labels, double clipNorm, INDArray gradOut) {
        if (!(clipNorm > 0)) {
            throw new IllegalArgumentException("clip norm must be > 0 (or +infinity for no clipping), got " + clipNorm);
        }
        long batch = checkShapes(params, features, labels, gradOut);
        try {
            INDArray scores = pass(params, features, labels, batch);
            INDArray norms = null;
            INDArray factors = null;
            if (!Double.isInfinite(clipNorm)) {
                norms = squaredNorms(batch);
                Transforms.sqrt(norms, false);
                // c = min(1, C / norm); a zero norm gives C / 0 = +inf, hence 1.
                factors = Transforms.min(norms.rdiv(clipNorm), 1.0, false);
            }
            for (ExampleLayer layer : parameterised) {
                layer.writeClippedGradient(factors, gradOut);
            }
            return new ClippedBatch(norms, scores.sum(true, 0).reshape(1), clipNorm);
        } finally {
            for (Node node : nodes) {
                if (node.layer() != null) {
                    node.layer().clear();
                } else {
                    node.vertex().clear();
                }
            }
        }
    }

    /** Per-example gradient norms ([b]) from the same batched pass (the gradient sum goes to a scratch array). */
    public INDArray norms(INDArray params, INDArray[] features, INDArray[] labels) {
        INDArray scratch = Nd4j.create(params.dataType(), params.shape());
        return clippedSum(params, features, labels, Double.MAX_VALUE, scratch).norms();
    }

    /** Forward and backward passes; returns each example's loss summed over the outputs. */
    private INDArray pass(INDArray params, INDArray[] features, INDArray[] labels, long batch) {
        INDArray[] values = new INDArray[networkInputs + nodes.size()];
        System.arraycopy(features, 0, values, 0, networkInputs);
        for (int k = 0; k < nodes.size(); k++) {
            Node node = nodes.get(k);
            INDArray[] in = new INDArray[node.inputs().length];
            for (int j = 0; j < in.length; j++) {
                in[j] = values[node.inputs()[j]];
            }
            if (node.layer() != null) {
                node.layer().bind(params);
                values[networkInputs + k] = node.layer().forward(in[0]);
            } else {
                values[networkInputs + k] = node.vertex().forward(in);
            }
        }
        INDArray[] epsilons = new INDArray[values.length];
        INDArray scores = Nd4j.zeros(dataType, batch);
        for (int k = nodes.size() - 1; k >= 0; k--) {
            Node node = nodes.get(k);
            int output = outputIndex(k);
            INDArray[] back;
            if (output >= 0) {
                ExampleLoss loss = (ExampleLoss) node.layer();
                back = new INDArray[]{loss.backwardFromLabels(labels[output], node.inputGradient())};
                scores.addi(loss.exampleScores().castTo(dataType));
            } else if (epsilons[networkInputs + k] == null) {
                continue;   // nothing downstream depends on this node
            } else if (node.layer() != null) {
                back = new INDArray[]{node.layer().backward(epsilons[networkInputs + k], node.inputGradient())};
            } else {
                back = node.vertex().backward(epsilons[networkInputs + k]);
            }
            if (!node.inputGradient()) {
                continue;
            }
            for (int j = 0; j < node.inputs().length; j++) {
                int s = node.inputs()[j];
                if (s >= networkInputs && back[j] != null) {
                    epsilons[s] = epsilons[s] == null ? back[j] : epsilons[s].add(back[j]);
                }
            }
        }
        return scores;
    }

    private INDArray squaredNorms(long batch) {
        INDArray sq = Nd4j.zeros(dataType, batch);
        for (ExampleLayer layer : parameterised) {
            layer.addSquaredNorms(sq);
        }
        return sq;
    }

    private int outputIndex(int node) {
        for (int o = 0; o < outputs.length; o++) {
            if (outputs[o] == node) {
                return o;
            }
        }
        return -1;
    }

    private long checkShapes(INDArray params, INDArray[] features, INDArray[] labels, INDArray gradOut) {
        if (features.length != networkInputs) {
            throw new IllegalArgumentException("the network has " + networkInputs + " inputs but " + features.length
                    + " feature arrays were given");
        }
        if (labels.length != outputs.length) {
            throw new IllegalArgumentException("the network has " + outputs.length + " outputs but " + labels.length
                    + " label arrays were given");
        }
        if (params.length() != numParams || gradOut.length() != numParams) {
            throw new IllegalArgumentException("parameters (" + params.length() + ") and gradient (" + gradOut.length()
                    + ") must both have the network's " + numParams + " entries");
        }
        long batch = features[0].size(0);
        for (INDArray a : features) {
            requireBatch(a, batch, "feature");
        }
        for (INDArray a : labels) {
            requireBatch(a, batch, "label");
        }
        return batch;
    }

    private static void requireBatch(INDArray a, long batch, String what) {
        if (a == null || a.rank() == 0 || a.size(0) != batch) {
            throw new IllegalArgumentException("every " + what + " array must hold the batch's " + batch
                    + " examples along dimension 0, got shape " + (a == null ? "null" : Arrays.toString(a.shape())));
        }
    }
}
