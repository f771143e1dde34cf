package org.dpdl4j.optim;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.nn.UnsupportedModelException;
import org.dpdl4j.optim.layers.ExampleLayerRegistry;
import org.dpdl4j.optim.layers.LayeredGradients;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Per-example clipping of one network: from one batched forward/backward pass, each example's gradient norm and
 * the sum of the examples' gradients scaled by {@code min(1, C / ||g_i||)}, without a per-example loop.
 *
 * <p>{@link #of(MultiLayerNetwork)} picks the engine: float32 networks of dense layers on the CPU get
 * {@link HostDenseGradients} (BLAS for the large products, plain Java for the rest), other dense networks
 * {@link PerExampleGradients} (ND4J operations only, and able to run many stacked models at once); every other
 * supported network - convolutions,
 * pooling, embeddings, loss layers, preprocessors, computation graphs - gets {@link LayeredGradients}, which runs
 * one per-layer handler from the {@link org.dpdl4j.optim.layers.ExampleLayerRegistry} per layer. An installed device
 * engine ({@link DeviceEngine}, e.g. dpdl4j-cuda's) takes the dense and convolutional networks it computes when it can
 * run here, or when asked for ({@link #of(MultiLayerNetwork, ComputeDevice)}).
 *
 * <p>An engine that holds resources (device memory) is {@link AutoCloseable}; whoever created it closes it.
 */
public interface ExampleGradients {
    /**
     * Computes the clipped gradient sum of a batch into {@code gradOut}.
     *
     * @param params              the network's flattened parameters ({@code [1, p]})
     * @param features            [b, ...] as the network's input takes it
     * @param labels              [b, k]
     * @param featureSquaredNorms null, or ||x_i||^2 per example (an engine may use it to skip a reduction)
     * @param clipNorm            C &gt; 0, or infinity for no clipping
     * @param gradOut             same layout as {@code params}; overwritten
     * @return the per-example norms and the batch's loss sum
     */
    ClippedBatch sumClipped(INDArray params, INDArray features, INDArray labels, INDArray featureSquaredNorms,
                            double clipNorm, INDArray gradOut);

    /**
     * The engine for a network: the dense one when every layer is fully connected, the per-layer one otherwise.
     *
     * @throws UnsupportedModelException listing every layer or option that cannot be clipped per example
     */
    static ExampleGradients of(MultiLayerNetwork net) {
        return of(net, ComputeDevice.AUTO);
    }

    /**
     * The engine for a network on a device: with {@link ComputeDevice#AUTO} an installed device engine (dpdl4j-cuda:
     * dense networks, and convolutional ones with cuDNN) when it can run here and computes the network, else the CPU's;
     * with {@link ComputeDevice#CUDA} the CUDA engine.
     *
     * @throws UnsupportedModelException  listing every layer or option that cannot be clipped per example
     * @throws DeviceUnavailableException when {@code device} is CUDA and the engine is missing, cannot run here, or does
     *                                    not compute this network
     */
    static ExampleGradients of(MultiLayerNetwork net, ComputeDevice device) {
        return of(net, device, ExampleLayerRegistry.standard());
    }

    /**
     * As {@link #of(MultiLayerNetwork, ComputeDevice)}, with the layer types {@code layers} handles (for instance the
     * standard ones plus a user's, {@link ExampleLayerRegistry#with}). The engines specialised for the standard layers
     * (the dense host engine, a device engine) are used only when the registry handles every layer of the network as
     * the standard registry does; otherwise the per-layer engine runs the registry's handlers.
     */
    static ExampleGradients of(MultiLayerNetwork net, ComputeDevice device, ExampleLayerRegistry layers) {
        boolean standard = layers.handlesAsStandard(layerTypes(net));
        if (standard && DpModelValidator.isDense(net.getLayerWiseConfigurations())) {
            DenseNetworkSpec spec = DpModelValidator.validate(net);
            ExampleGradients onDevice = DeviceEngines.select(device, spec);
            if (onDevice != null) {
                return onDevice;
            }
            HostDenseGradients host = HostDenseGradients.of(spec);
            return host != null ? host : new PerExampleGradients(spec);
        }
        ExampleGradients layered = LayeredGradients.of(net, layers);   // refuses, listing them, layers nobody clips per example
        if (!standard) {
            DeviceEngines.requireCpuIsEnough(device, "a network with layers handled by a registry of the caller's");
            return layered;
        }
        ExampleGradients onDevice = DeviceEngines.selectConvolutional(device, net);
        return onDevice != null ? onDevice : layered;
    }

    private static List<Class<? extends Layer>> layerTypes(MultiLayerNetwork net) {
        MultiLayerConfiguration conf = net.getLayerWiseConfigurations();
        List<Class<? extends Layer>> types = new ArrayList<>();
        for (int i = 0; i < conf.getConfs().size(); i++) {
            types.add(conf.getConf(i).getLayer().getClass());
        }
        return types;
    }

    /** The per-layer engine for a computation graph with one input and one output. */
    static ExampleGradients of(ComputationGraph graph) {
        return of(graph, ComputeDevice.AUTO);
    }

    /** As {@link #of(ComputationGraph)}; a computation graph runs on the CPU ({@link ComputeDevice#CUDA} is refused). */
    static ExampleGradients of(ComputationGraph graph, ComputeDevice device) {
        return of(graph, device, ExampleLayerRegistry.standard());
    }

    /** As {@link #of(ComputationGraph, ComputeDevice)}, with the layer types {@code layers} handles. */
    static ExampleGradients of(ComputationGraph graph, ComputeDevice device, ExampleLayerRegistry layers) {
        ExampleGradients layered = LayeredGradients.of(graph, layers);
        DeviceEngines.requireCpuIsEnough(device, "a computation graph");
        return layered;
    }
}
