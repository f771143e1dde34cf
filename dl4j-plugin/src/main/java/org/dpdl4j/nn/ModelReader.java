package org.dpdl4j.nn;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.BaseLayer;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.FeedForwardLayer;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.activations.IActivation;

/**
 * Reads a DL4J {@link MultiLayerConfiguration} into a {@link ModelDescription}: per layer its kind, sizes,
 * activation, bias, loss, input preprocessor, the example shape flowing in and out, the geometry of a
 * convolution, and where its parameters lie in DL4J's flattened parameter vector.
 *
 * <p>The reader understands deterministic feed-forward stacks fed flat input rows: {@link DenseLayer}s, 2-D
 * {@link ConvolutionLayer}s and {@link SubsamplingLayer}s (max or average pooling without padding) in NCHW (reached
 * through the preprocessors of {@code InputType.convolutionalFlat}) and a final {@link OutputLayer}. It reads everything else too, as far as it can, and files one
 * {@link ModelProblem} per thing it does not support, so a caller can list them all at once: other layer types,
 * dropout and weight noise (random per example and per pass), layer normalization, activations with parameters,
 * other preprocessors and layouts, and sizes that do not fit together.
 */
public final class ModelReader {
    private ModelReader() {
    }

    /** Reads the configuration of a network (initialised or not). */
    public static ModelDescription read(MultiLayerNetwork net) {
        return read(net.getLayerWiseConfigurations());
    }

    /** Reads a configuration; never throws for an unsupported network but lists its problems. */
    public static ModelDescription read(MultiLayerConfiguration conf) {
        List<ModelProblem> problems = new ArrayList<>();
        int count = conf.getConfs().size();
        if (count == 0) {
            problems.add(ModelProblem.network("the network has no layers", "add layers ending in an OutputLayer"));
        }
        List<LayerDescription> layers = new ArrayList<>(count);
        ExampleShape arriving = null;
        long inputSize = -1;
        long offset = 0;
        for (int i = 0; i < count; i++) {
            LayerDescription layer = readLayer(conf, i, arriving, offset, problems);
            if (i == 0 && layer.input() != null) {
                inputSize = layer.input().size();
            }
            layers.add(layer);
            arriving = layer.output();
            offset += layer.paramCount();
        }
        return new ModelDescription(layers, inputSize, conf.getDataType(), conf.getBackpropType(), problems);
    }

    private static LayerDescription readLayer(MultiLayerConfiguration conf, int i, ExampleShape arriving, long offset,
                                              List<ModelProblem> all) {
        NeuralNetConfiguration layerConf = conf.getConf(i);
        Layer layer = layerConf.getLayer();
        LayerKind kind = LayerKind.of(layer);
        LayerProblems problems = new LayerProblems(i, LayerDescription.label(i, layer), all);
        boolean last = i == conf.getConfs().size() - 1;
        checkPlace(layer, kind, last, problems);
        checkOptions(layer, kind, problems);

        InputPreProcessor pre = conf.getInputPreProcess(i);
        ExampleShape input;
        if (pre != null) {
            input = PreprocessorReader.apply(pre, arriving, i == 0, problems);
        } else if (i == 0) {
            input = networkInput(layer, kind, problems);
        } else {
            input = arriving;
        }
        long nIn = layer instanceof FeedForwardLayer ff ? ff.getNIn() : 0;
        long nOut = layer instanceof FeedForwardLayer ff ? ff.getNOut() : 0;
        ConvolutionGeometry geometry = null;
        PoolingGeometry pooling = null;
        ExampleShape output = null;
        switch (kind) {
            case DENSE, OUTPUT -> {
                requireFlat(input, nIn, problems);
                output = ExampleShape.flat(nOut);
            }
            case CONVOLUTION_2D -> {
                geometry = ConvolutionReader.read((ConvolutionLayer) layer, input, problems);
                if (geometry != null) {
                    output = ExampleShape.image(geometry.outChannels(), geometry.outHeight(), geometry.outWidth());
                }
            }
            case SUBSAMPLING_2D -> {
                pooling = PoolingReader.read((SubsamplingLayer) layer, input, problems);
                if (pooling != null) {
                    output = ExampleShape.image(pooling.channels(), pooling.outHeight(), pooling.outWidth());
                }
            }
            case UNSUPPORTED -> {
                // Neither sizes nor shapes are known past a layer the reader does not understand.
            }
        }
        IActivation activation = layer instanceof BaseLayer base ? base.getActivationFn() : null;
        return new LayerDescription(i, kind, layerConf, pre, input, output, nIn, nOut, activation, hasBias(layer, kind),
                geometry, pooling, kind == LayerKind.OUTPUT ? ((OutputLayer) layer).getLossFn() : null,
                offset, layer.initializer().numParams(layerConf));
    }

    private static void checkPlace(Layer layer, LayerKind kind, boolean last, LayerProblems problems) {
        if (kind == LayerKind.UNSUPPORTED) {
            problems.add("layer type " + layer.getClass().getSimpleName() + " is not supported",
                    "the model reader understands DenseLayer, ConvolutionLayer and SubsamplingLayer (2-D, NCHW) and a"
                            + " final OutputLayer; replace or remove this layer");
        }
        if (kind == LayerKind.OUTPUT && !last) {
            problems.add("an OutputLayer must be the last layer", "use a DenseLayer here");
        }
        if (last && kind != LayerKind.OUTPUT) {
            problems.add("the last layer must be an OutputLayer, which gives the network its loss",
                    "end the network with an OutputLayer");
        }
    }

    /** Options that make a layer more than an affine map and a fixed activation. */
    private static void checkOptions(Layer layer, LayerKind kind, LayerProblems problems) {
        if (layer.getIDropout() != null) {
            problems.add("dropout draws a random mask per example on every pass, which per-example computations"
                    + " from this description (clipping's batched pass, gradient matching) do not reproduce",
                    "remove dropOut(...)");
        }
        if (layer instanceof BaseLayer base && base.getWeightNoise() != null) {
            problems.add("weight noise perturbs the weights randomly on every pass, which per-example computations"
                    + " from this description do not reproduce", "remove weightNoise(...)");
        }
        if (layer instanceof DenseLayer dense && dense.hasLayerNorm()) {
            problems.add("layer normalization is not supported", "remove hasLayerNorm(true)");
        }
        if (kind != LayerKind.UNSUPPORTED && layer instanceof BaseLayer base && base.getActivationFn() != null
                && base.getActivationFn().numParams((int) ((FeedForwardLayer) layer).getNIn()) > 0) {
            problems.add("activation " + base.getActivationFn() + " has trainable parameters",
                    "use an activation without parameters");
        }
    }

    /** The first layer without a preprocessor receives the network's flat input rows as they are. */
    private static ExampleShape networkInput(Layer layer, LayerKind kind, LayerProblems problems) {
        return switch (kind) {
            case DENSE, OUTPUT -> ExampleShape.flat(((FeedForwardLayer) layer).getNIn());
            case CONVOLUTION_2D, SUBSAMPLING_2D -> {
                problems.add("a " + (kind == LayerKind.CONVOLUTION_2D ? "convolution" : "pooling layer") + " needs image"
                        + " input, but the network's input is flat rows and no preprocessor reshapes them",
                        "build the configuration with setInputType(InputType.convolutionalFlat(height, width, channels))");
                yield null;
            }
            case UNSUPPORTED -> null;
        };
    }

    private static void requireFlat(ExampleShape input, long nIn, LayerProblems problems) {
        if (input == null) {
            return;
        }
        if (input.isImage()) {
            problems.add("expects flat input but receives an " + input,
                    "add a CnnToFeedForwardPreProcessor (InputType.convolutionalFlat does this)");
        } else if (input.size() != nIn) {
            problems.add("expects " + nIn + " inputs but receives " + input.size(),
                    "set nIn(" + input.size() + ") or let setInputType(...) infer it");
        }
    }

    private static boolean hasBias(Layer layer, LayerKind kind) {
        return switch (kind) {
            case DENSE -> ((DenseLayer) layer).hasBias();
            case OUTPUT -> ((OutputLayer) layer).hasBias();
            case CONVOLUTION_2D -> ((ConvolutionLayer) layer).hasBias();
            case SUBSAMPLING_2D, UNSUPPORTED -> false;
        };
    }
}
