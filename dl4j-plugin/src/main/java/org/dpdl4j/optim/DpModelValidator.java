package org.dpdl4j.optim;

import org.deeplearning4j.nn.conf.BackpropType;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.BaseLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.FeedForwardLayer;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.impl.LossFMeasure;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks that per-example clipping can handle a network exactly, and extracts its {@link DenseNetworkSpec}.
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
 */
public final class DpModelValidator {
    private static final String SUPPORTED = "Supported: DenseLayer (without layer norm) layers followed by one OutputLayer, "
            + "activations without parameters, per-example losses, no dropout, no weight noise, FLOAT or DOUBLE.";

    private DpModelValidator() {
    }

    /** Validates an initialised or uninitialised network's configuration. */
    public static DenseNetworkSpec validate(MultiLayerNetwork net) {
        return validate(net.getLayerWiseConfigurations());
    }

    /** Returns the spec of a supported configuration, or throws {@link UnsupportedModelException}. */
    public static DenseNetworkSpec validate(MultiLayerConfiguration conf) {
        List<String> problems = new ArrayList<>();
        List<DenseLayerSpec> layers = new ArrayList<>();
        int count = conf.getConfs().size();
        if (count == 0) {
            problems.add("the network has no layers");
        }
        if (conf.getBackpropType() != BackpropType.Standard) {
            problems.add("backprop type " + conf.getBackpropType() + " (only Standard backprop is supported)");
        }
        if (conf.getInputPreProcessors() != null && !conf.getInputPreProcessors().isEmpty()) {
            problems.add("input preprocessors at layers " + conf.getInputPreProcessors().keySet()
                    + " (feed flat feature vectors instead)");
        }
        DataType dataType = conf.getDataType();
        if (dataType != DataType.FLOAT && dataType != DataType.DOUBLE) {
            problems.add("data type " + dataType + " (use FLOAT or DOUBLE)");
        }
        long offset = 0;
        for (int i = 0; i < count; i++) {
            NeuralNetConfiguration layerConf = conf.getConf(i);
            Layer layer = layerConf.getLayer();
            boolean last = i == count - 1;
            String where = "layer " + i + " (" + layer.getClass().getSimpleName()
                    + (layer.getLayerName() != null ? " \"" + layer.getLayerName() + "\"" : "") + ")";
            Class<?> expected = last ? OutputLayer.class : DenseLayer.class;
            if (layer.getClass() != expected) {
                problems.add(where + ": expected " + expected.getSimpleName() + (last ? " as the last layer" : " here"));
                offset += layer.initializer().numParams(layerConf);
                continue;
            }
            checkLayerOptions((BaseLayer) layer, where, problems);
            FeedForwardLayer ff = (FeedForwardLayer) layer;
            boolean hasBias = last ? ((OutputLayer) layer).hasBias() : ((DenseLayer) layer).hasBias();
            layers.add(new DenseLayerSpec(i, ff.getNIn(), ff.getNOut(), ff.getActivationFn(), hasBias, offset));
            offset += layer.initializer().numParams(layerConf);
            if (last && ((OutputLayer) layer).getLossFn() instanceof LossFMeasure) {
                problems.add(where + ": the F-measure loss is computed over the whole batch, not per example");
            }
        }
        if (!problems.isEmpty()) {
            throw new UnsupportedModelException("This network cannot be trained with per-example clipping:\n  - "
                    + String.join("\n  - ", problems) + "\n" + SUPPORTED);
        }
        OutputLayer out = (OutputLayer) conf.getConf(count - 1).getLayer();
        return new DenseNetworkSpec(layers, out.getLossFn(), offset, dataType);
    }

    private static void checkLayerOptions(BaseLayer layer, String where, List<String> problems) {
        if (layer instanceof DenseLayer dense && dense.hasLayerNorm()) {
            problems.add(where + ": layer normalization is not supported (remove hasLayerNorm(true))");
        }
        if (layer.getIDropout() != null) {
            problems.add(where + ": dropout draws a random mask per example, which the batched per-example pass "
                    + "does not reproduce (remove dropOut(...))");
        }
        if (layer.getWeightNoise() != null) {
            problems.add(where + ": weight noise is not supported (remove weightNoise(...))");
        }
        if (layer.getActivationFn() != null && layer.getActivationFn().numParams((int) ((FeedForwardLayer) layer).getNIn()) > 0) {
            problems.add(where + ": activation " + layer.getActivationFn() + " has trainable parameters");
        }
    }
}
