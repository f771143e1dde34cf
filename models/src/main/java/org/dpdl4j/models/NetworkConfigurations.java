package org.dpdl4j.models;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.BaseLayer;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.nd4j.linalg.learning.regularization.Regularization;
import org.nd4j.linalg.learning.regularization.WeightDecay;

/** The part of every configuration that comes from {@link ModelOptions}. */
final class NetworkConfigurations {
    private NetworkConfigurations() {
    }

    /** A layer-list builder with the seed, updater, data type and weight init of the options. */
    static NeuralNetConfiguration.ListBuilder layers(ModelOptions options) {
        return new NeuralNetConfiguration.Builder()
                .seed(options.seed())
                .updater(options.updater())
                .dataType(options.dataType())
                .weightInit(options.weightInit())
                .list();
    }

    /**
     * Builds the configuration and sets the weight decay of the options on every trainable layer.
     *
     * <p>The decay is set on the built layers rather than through the global builder because DL4J
     * 1.0.0-M2.1 copies a global {@code weightDecay} into each layer twice (once when copying global
     * settings, once more during layer validation), which would apply {@code 2 * lambda}.
     */
    static MultiLayerConfiguration build(NeuralNetConfiguration.ListBuilder layers, ModelOptions options) {
        MultiLayerConfiguration conf = layers.build();
        if (options.weightDecay() > 0) {
            for (NeuralNetConfiguration layerConf : conf.getConfs()) {
                Layer layer = layerConf.getLayer();
                if (layer instanceof BaseLayer trainable) {
                    trainable.setRegularization(decay(options));
                    trainable.setRegularizationBias(options.decayBiases() ? decay(options) : new ArrayList<>());
                }
            }
        }
        return conf;
    }

    /** applyLR = true: {@code x <- x - lr * lambda * x}, added after the updater step. */
    private static List<Regularization> decay(ModelOptions options) {
        List<Regularization> list = new ArrayList<>();
        list.add(new WeightDecay(options.weightDecay(), true));
        return list;
    }
}
