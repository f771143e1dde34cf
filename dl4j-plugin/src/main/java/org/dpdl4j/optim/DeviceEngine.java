package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;

import java.util.List;

/**
 * A per-example gradient engine on an accelerator, installed by a module of its own (dpdl4j-cuda) and found through
 * {@link java.util.ServiceLoader}: list the implementation in {@code META-INF/services/org.dpdl4j.optim.DeviceEngine}.
 * {@link DeviceEngines} chooses among them; the core keeps no dependency on any accelerator library.
 */
public interface DeviceEngine {
    /** The device it runs on, as {@code --device} names it. */
    ComputeDevice device();

    /** Whether it can run on this machine, with the facts to show and, when it cannot, what is missing and the fix. */
    Report report();

    /** Null when it computes this network; else why not, naming the layer or setting and what to use instead. */
    String whyNot(DenseNetworkSpec spec);

    /**
     * The engine for a network it computes ({@link #whyNot} null) on a machine where it can run, on the device
     * {@code slot} names ({@link ComputeDevice#slot()}: the one asked for by number, else the first usable one).
     *
     * @throws DeviceUnavailableException when the device cannot be used after all (e.g. its kernels do not compile, or
     *                                    the numbered device is not one this engine can use here)
     */
    ExampleGradients open(DenseNetworkSpec spec, DeviceSlot slot);

    /**
     * Null when it computes this network of convolution, pooling and dense layers (one {@code LayeredGradients}
     * accepts); else why not. An engine of dense networks only keeps the default.
     */
    default String whyNotConvolutional(MultiLayerNetwork net) {
        return "the " + device().label() + " engine computes networks of dense layers only";
    }

    /**
     * The engine for a convolutional network it computes ({@link #whyNotConvolutional} null) on a machine where it can
     * run, on the device {@code slot} names (as {@link #open}).
     *
     * @throws DeviceUnavailableException when it cannot after all
     */
    default ExampleGradients openConvolutional(MultiLayerNetwork net, DeviceSlot slot) {
        throw new DeviceUnavailableException(whyNotConvolutional(net));
    }

    /**
     * Null when it keeps {@code nodes} models of this network on the device and runs their rounds
     * ({@link DeviceNodeModels}); else why not. An engine of single models keeps the default.
     */
    default String whyNotNodeModels(DenseNetworkSpec spec, int nodes) {
        return "the " + device().label() + " engine computes one model at a time";
    }

    /**
     * The n models of a network it keeps ({@link #whyNotNodeModels} null) on a machine where it can run, on the device
     * {@code slot} names: a numbered device itself (asked for, or assigned by a cluster scheduler), or a block's place
     * among this machine's usable devices (its index modulo their number), so that the blocks of a run spread over a
     * worker's devices.
     *
     * @throws DeviceUnavailableException when it cannot after all (e.g. the models do not fit its memory, or a numbered
     *                                    device is not one this engine can use here)
     */
    default DeviceNodeModels openNodeModels(DenseNetworkSpec spec, int nodes, DeviceSlot slot) {
        throw new DeviceUnavailableException(whyNotNodeModels(spec, nodes));
    }

    /**
     * What a device engine found on this machine.
     *
     * @param usable  whether it can run here
     * @param facts   lines to show: the GPU, its driver, the libraries found
     * @param problem null when usable; else what is missing and how to fix it
     */
    record Report(boolean usable, List<String> facts, String problem) {
        public Report {
            facts = List.copyOf(facts);
        }
    }
}
