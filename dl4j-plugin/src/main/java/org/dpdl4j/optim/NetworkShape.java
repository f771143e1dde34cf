package org.dpdl4j.optim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.graph.GraphVertex;
import org.deeplearning4j.nn.conf.graph.LayerVertex;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.EmbeddingLayer;
import org.deeplearning4j.nn.conf.layers.FeedForwardLayer;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.preprocessor.FeedForwardToCnnPreProcessor;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;

/**
 * What a network's input takes and its output gives, read from its configuration, so that training data can be checked
 * against it before the first step: flat rows of a known width, or NCHW images (flattened by a
 * {@code FeedForwardToCnnPreProcessor}, as {@code InputType.convolutionalFlat} sets up, or taken as they are by a
 * first convolution), and the width of the labels.
 *
 * @param inputLayer   how the messages name what reads the input (e.g. {@code layer 0 (DenseLayer)})
 * @param flatWidth    the values per example the input takes as a flat row; 0 when it takes images or is unknown
 * @param image        channels, height and width of the images a preprocessor makes of each row (then the row is
 *                     their NCHW flattening), or those a first convolution takes (height and width 0 when unknown);
 *                     null when the input is not an image
 * @param imagesAsRows whether the network takes its images as flat rows (a preprocessor) rather than rank-4 arrays
 * @param outputLayer  how the messages name the output layer
 * @param outputs      the output layer's width; 0 when unknown
 */
record NetworkShape(String inputLayer, long flatWidth, long[] image, boolean imagesAsRows, String outputLayer, long outputs) {

    static NetworkShape of(Model model) {
        if (model instanceof MultiLayerNetwork net) {
            return of(net.getLayerWiseConfigurations());
        }
        if (model instanceof ComputationGraph graph) {
            return of(graph.getConfiguration());
        }
        return new NetworkShape("the network's input", 0, null, false, "the output layer", 0);
    }

    private static NetworkShape of(MultiLayerConfiguration conf) {
        int last = conf.getConfs().size() - 1;
        Layer output = conf.getConf(last).getLayer();
        NetworkShape in = reading("layer 0 (" + conf.getConf(0).getLayer().getClass().getSimpleName() + ")",
                conf.getConf(0).getLayer(), conf.getInputPreProcess(0));
        return in.withOutput("layer " + last + " (" + output.getClass().getSimpleName() + ")", widthOf(output));
    }

    private static NetworkShape of(ComputationGraphConfiguration conf) {
        String input = conf.getNetworkInputs().get(0);
        List<NetworkShape> readers = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : conf.getVertexInputs().entrySet()) {
            GraphVertex v = conf.getVertices().get(e.getKey());
            if (e.getValue().contains(input) && v instanceof LayerVertex lv) {
                Layer layer = lv.getLayerConf().getLayer();
                readers.add(reading("vertex \"" + e.getKey() + "\" (" + layer.getClass().getSimpleName() + ")", layer,
                        lv.getPreProcessor()));
            }
        }
        // The most specific reader decides: a known flat width, else an image shape, else nothing is known.
        NetworkShape in = readers.stream().filter(r -> r.flatWidth > 0).findFirst()
                .or(() -> readers.stream().filter(r -> r.image != null).findFirst())
                .orElse(new NetworkShape("the graph's input \"" + input + "\"", 0, null, false, null, 0));
        String out = conf.getNetworkOutputs().get(0);
        GraphVertex v = conf.getVertices().get(out);
        if (v instanceof LayerVertex lv) {
            Layer layer = lv.getLayerConf().getLayer();
            return in.withOutput("vertex \"" + out + "\" (" + layer.getClass().getSimpleName() + ")", widthOf(layer));
        }
        return in.withOutput("the output \"" + out + "\"", 0);
    }

    /** What a layer (behind its preprocessor, if any) takes as the network's input. */
    private static NetworkShape reading(String name, Layer layer, InputPreProcessor pre) {
        if (pre instanceof FeedForwardToCnnPreProcessor p) {
            long[] image = {p.getNumChannels(), p.getInputHeight(), p.getInputWidth()};
            return new NetworkShape(name + " with its FeedForwardToCnnPreProcessor", image[0] * image[1] * image[2], image,
                    true, null, 0);
        }
        if (pre != null) {
            return new NetworkShape(name, 0, null, false, null, 0);   // another preprocessor: its input shape is its own
        }
        if (layer instanceof EmbeddingLayer) {
            return new NetworkShape(name + ", which takes one class index per example", 1, null, false, null, 0);
        }
        if (layer instanceof ConvolutionLayer c) {
            return new NetworkShape(name, 0, new long[]{c.getNIn(), 0, 0}, false, null, 0);
        }
        if (layer instanceof FeedForwardLayer f && f.getNIn() > 0) {
            return new NetworkShape(name, f.getNIn(), null, false, null, 0);
        }
        return new NetworkShape(name, 0, null, false, null, 0);
    }

    private static long widthOf(Layer output) {
        return output instanceof FeedForwardLayer f ? f.getNOut() : 0;
    }

    private NetworkShape withOutput(String name, long width) {
        return new NetworkShape(inputLayer, flatWidth, image, imagesAsRows, name, width);
    }

    /** Whether the network takes rank-4 images [batch, channels, height, width] as they are. */
    boolean takesImageArrays() {
        return image != null && !imagesAsRows;
    }
}
