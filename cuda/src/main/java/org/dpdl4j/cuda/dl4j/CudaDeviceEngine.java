package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.device.CudaBackend;
import org.dpdl4j.cuda.device.CudaException;
import org.dpdl4j.cuda.device.CudaProbe;
import org.dpdl4j.cuda.device.CudaStatus;
import org.dpdl4j.cuda.engine.DenseModel;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.dpdl4j.optim.DeviceEngine;
import org.dpdl4j.optim.DeviceNodeModels;
import org.dpdl4j.optim.DeviceSlot;
import org.dpdl4j.cuda.engine.StackedDenseModels;
import org.dpdl4j.optim.DeviceUnavailableException;
import org.dpdl4j.optim.ExampleGradients;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * dpdl4j's CUDA engine as the core finds it ({@code META-INF/services/org.dpdl4j.optim.DeviceEngine}): usable when
 * {@link CudaProbe} finds a GPU of sm_75 or later, its driver and the CUDA 13 libraries; computes the float32 dense
 * networks {@link DenseModels} accepts, and the convolutional ones {@link ConvNetModels} accepts where cuDNN 9 loads.
 */
public final class CudaDeviceEngine implements DeviceEngine {
    @Override
    public ComputeDevice device() {
        return ComputeDevice.CUDA;
    }

    @Override
    public Report report() {
        CudaStatus s = CudaProbe.status();
        List<String> facts = new ArrayList<>(s.facts());
        facts.addAll(CudaProbe.cudnnFacts());
        return new Report(s.usable(), facts, s.problem());
    }

    @Override
    public String whyNot(DenseNetworkSpec spec) {
        return DenseModels.whyNot(spec);
    }

    @Override
    public ExampleGradients open(DenseNetworkSpec spec, DeviceSlot slot) {
        return onNewBackend(() -> backendFor(slot), backend -> new CudaExampleGradients(spec, backend, true));
    }

    /** Null when the network's layers have CUDA computations and cuDNN loads here; else why not. */
    @Override
    public String whyNotConvolutional(MultiLayerNetwork net) {
        String why = ConvNetModels.whyNot(net);
        return why != null ? why : CudaProbe.cudnnProblem();
    }

    @Override
    public ExampleGradients openConvolutional(MultiLayerNetwork net, DeviceSlot slot) {
        return onNewBackend(() -> backendFor(slot), backend -> CudaExampleGradients.convolutional(net, backend, true));
    }

    /** Null when the network's layers have CUDA computations and the n models fit one device array. */
    @Override
    public String whyNotNodeModels(DenseNetworkSpec spec, int nodes) {
        String why = DenseModels.whyNot(spec);
        if (why == null && (long) nodes * spec.numParams() > StackedDenseModels.MAX_VALUES) {
            why = nodes + " models of " + spec.numParams() + " parameters are more than one device array holds ("
                    + StackedDenseModels.MAX_VALUES + " values): use fewer nodes per device (--engine spark splits them into"
                    + " blocks)";
        }
        return why;
    }

    /**
     * On the GPU {@code slot} names: a numbered GPU itself, or a block's place among the usable ones (its index modulo
     * their number), so that blocks spread over a worker's GPUs.
     */
    @Override
    public DeviceNodeModels openNodeModels(DenseNetworkSpec spec, int nodes, DeviceSlot slot) {
        return onNewBackend(() -> backendFor(slot), backend -> backend.reserving(() -> {
            requireRoomFor(spec, nodes, backend.freeBytes(), backend.describe());
            return new CudaNodeModels(spec, nodes, backend, true);
        }));
    }

    /**
     * Refuses n models whose arrays (models, gradients, noise, gossip: 4 n p floats, before any batch) do not fit the
     * device's free memory, saying how many would.
     *
     * @throws DeviceUnavailableException naming the memory needed and free and the nodes that fit
     */
    static void requireRoomFor(DenseNetworkSpec spec, int nodes, long freeBytes, String device) {
        DenseModel model = DenseModels.of(spec);
        long needed = StackedDenseModels.bytesFor(model, nodes, 0);
        if (needed > freeBytes) {
            int fit = StackedDenseModels.nodesThatFit(model, 0, freeBytes);
            throw new DeviceUnavailableException(String.format(java.util.Locale.ROOT, "%d node models of %d parameters"
                    + " need %.2f GiB of device memory before any batch (models, gradients, noise and gossip: 4 n p"
                    + " floats); %s has %.2f GiB free, room for at most %d such nodes (fewer with their batches and"
                    + " data): use fewer nodes, --engine spark with blocks of at most that many nodes each, or --device"
                    + " cpu", nodes, spec.numParams(), needed / (double) (1L << 30), device,
                    freeBytes / (double) (1L << 30), fit));
        }
    }

    /** A backend on the GPU {@code slot} names: the numbered one, else the slot's place among the usable ones. */
    private static CudaBackend backendFor(DeviceSlot slot) {
        return slot.assigned() ? CudaBackend.onGpu(slot.number()) : CudaBackend.open(slot.number());
    }

    /**
     * An engine on a backend of its own ({@code opens} makes it), which it closes; the backend is closed again if the
     * engine cannot be made.
     */
    private static <T> T onNewBackend(java.util.function.Supplier<CudaBackend> opens, Function<CudaBackend, T> engine) {
        CudaBackend backend;
        try {
            backend = opens.get();
        } catch (IllegalStateException | CudaException e) {   // unusable, or the kernels did not compile or load
            throw new DeviceUnavailableException("the CUDA engine cannot start: " + e.getMessage(), e);
        }
        try {
            return engine.apply(backend);
        } catch (DeviceUnavailableException e) {   // a refusal that says why itself (e.g. no room for the models)
            backend.close();
            throw e;
        } catch (IllegalStateException | CudaException e) {   // cuDNN missing after all, or failing to start
            backend.close();
            throw new DeviceUnavailableException("the CUDA engine cannot start: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }
}
