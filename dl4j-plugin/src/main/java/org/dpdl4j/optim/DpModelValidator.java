package org.dpdl4j.optim;

import org.deeplearning4j.nn.conf.BackpropType;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.nn.LayerDescription;
import org.dpdl4j.nn.LayerKind;
import org.dpdl4j.nn.ModelDescription;
import org.dpdl4j.nn.ModelProblem;
import org.dpdl4j.nn.ModelReader;
import org.dpdl4j.nn.UnsupportedModelException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.impl.LossFMeasure;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks that the dense per-example engine ({@link PerExampleGradients}) can handle a network exactly, and extracts
 * its {@link DenseNetworkSpec}. That engine is the fused path for fully connected networks and the one that runs many
 * stacked models at once (the decentralized and federated protocols); every other network that per-example
 * clipping supports (convolutions, pooling, embeddings, graphs) goes to
 * {@link org.dpdl4j.optim.layers.LayeredGradients} through {@link ExampleGradients#of}.
 *
 * <p>Per-example gradients are computed from one batched pass ("ghost norms"), which is exact only when
 * every example's gradient depends on that example alone and every parameterised layer is fully
 * connected. So the validator accepts a stack of {@link DenseLayer}s ending in one {@link OutputLayer},
 * with any activation without parameters and any per-example loss, and rejects (listing every problem at
 * once): other layer types (convolution, recurrent, batch normalization - which mixes examples - ...),
 * layer normalization, dropout and weight noise (random per-example masks the batched pass does not
 * reproduce), input preprocessors, truncated BPTT, batch-level losses such as F-measure, and half
 * precision. Regularization, gradient normalization and constraints are accepted: DL4J applies them to
 * the privatised gradient or to the parameters, which is post-processing.
 *
 * <p>The network is read by {@link ModelReader}, whose problems (unknown layers, dropout, weight noise, layer
 * normalization, activations with parameters, misplaced output layers) are refused here too; this class adds
 * the rules of clipping on top.
 */
public final class DpModelValidator {
    private static final String REFUSAL = "This network cannot be trained with per-example clipping";
    private static final String SUPPORTED = "Supported: DenseLayer (without layer norm) layers followed by one OutputLayer, "
            + "activations without parameters, per-example losses, no dropout, no weight noise, FLOAT or DOUBLE.";

    private DpModelValidator() {
    }

    /** Validates an initialised or uninitialised network's configuration. */
    public static DenseNetworkSpec validate(MultiLayerNetwork net) {
        return validate(net.getLayerWiseConfigurations());
    }

    /** Whether the dense engine can handle the configuration ({@link #validate} would return its spec). */
    public static boolean isDense(MultiLayerConfiguration conf) {
        ModelDescription model = ModelReader.read(conf);
        return model.problems().isEmpty() && clippingProblems(model).isEmpty();
    }

    /** Returns the spec of a supported configuration, or throws {@link UnsupportedModelException}. */
    public static DenseNetworkSpec validate(MultiLayerConfiguration conf) {
        ModelDescription model = ModelReader.read(conf);
        List<ModelProblem> problems = new ArrayList<>(model.problems());
        problems.addAll(clippingProblems(model));
        if (!problems.isEmpty()) {
            throw new UnsupportedModelException(REFUSAL, problems, SUPPORTED);
        }
        List<DenseLayerSpec> layers = model.layers().stream()
                .map(l -> new DenseLayerSpec(l.index(), l.nIn(), l.nOut(), l.activation(), l.hasBias(), l.paramOffset()))
                .toList();
        return new DenseNetworkSpec(layers, model.output().loss(), model.numParams(), model.dataType());
    }

    /** What the reader accepts but the batched per-example pass cannot compute exactly. */
    private static List<ModelProblem> clippingProblems(ModelDescription model) {
        List<ModelProblem> problems = new ArrayList<>();
        if (model.backpropType() != BackpropType.Standard) {
            problems.add(ModelProblem.network("backprop type " + model.backpropType(),
                    "only Standard backprop is supported"));
        }
        List<Integer> preprocessed = model.layers().stream().filter(l -> l.preprocessor() != null)
                .map(LayerDescription::index).toList();
        if (!preprocessed.isEmpty()) {
            problems.add(ModelProblem.network("input preprocessors at layers " + preprocessed,
                    "feed flat feature vectors instead"));
        }
        DataType dataType = model.dataType();
        if (dataType != DataType.FLOAT && dataType != DataType.DOUBLE) {
            problems.add(ModelProblem.network("data type " + dataType, "use FLOAT or DOUBLE"));
        }
        for (LayerDescription layer : model.layers()) {
            if (layer.kind() == LayerKind.CONVOLUTION_2D || layer.kind() == LayerKind.SUBSAMPLING_2D) {
                problems.add(layer.problem("the stacked per-example engine of the multi-party protocols computes fully"
                        + " connected layers only, not " + (layer.kind() == LayerKind.CONVOLUTION_2D ? "convolutions"
                        : "pooling"), "use DenseLayers here, or train the CNN centrally (PrivateTrainer, train --algo"
                        + " dp-sgd), whose per-layer engine clips convolutional networks"));
            }
            if (layer.loss() instanceof LossFMeasure) {
                problems.add(layer.problem("the F-measure loss is computed over the whole batch, not per example",
                        "use a per-example loss such as MCXENT, XENT or MSE"));
            }
        }
        return problems;
    }
}
