package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * The installed {@link DeviceEngine}s and the choice among them for a network (of dense layers, or convolutional):
 * {@code auto} takes one
 * that can run here and computes the network, {@code cpu} none, {@code cuda} the CUDA engine or a
 * {@link DeviceUnavailableException} naming what is missing.
 */
public final class DeviceEngines {
    /** Where the CUDA engine comes from, for refusals. */
    static final String CUDA_MODULE = "dpdl4j's CUDA engine comes with the dpdl4j-cuda module (org.dpdl4j:dpdl4j-cuda,"
            + " in the dpdl4j command's lib/ folder): put it on the class path";

    private DeviceEngines() {
    }

    /** The installed device engines. */
    public static List<DeviceEngine> installed() {
        List<DeviceEngine> out = new ArrayList<>();
        ServiceLoader.load(DeviceEngine.class, DeviceEngines.class.getClassLoader()).forEach(out::add);
        return out;
    }

    /** The installed engine of a device's kind (cuda and cuda:N: the CUDA engine). */
    public static Optional<DeviceEngine> find(ComputeDevice device) {
        return installed().stream().filter(e -> e.device().kind() == device.kind()).findFirst();
    }

    /**
     * The device engine for a dense network, or null for the CPU's engines.
     *
     * @throws DeviceUnavailableException when {@code device} is {@link ComputeDevice#CUDA} and the CUDA engine is not
     *                                    installed, cannot run here, or does not compute this network
     */
    static ExampleGradients select(ComputeDevice device, DenseNetworkSpec spec) {
        return select(device, e -> e.whyNot(spec), e -> e.open(spec, device.slot()));
    }

    /**
     * The device engine for a network of convolution, pooling and dense layers, or null for the CPU's engine.
     *
     * @throws DeviceUnavailableException as {@link #select(ComputeDevice, DenseNetworkSpec)}
     */
    static ExampleGradients selectConvolutional(ComputeDevice device, MultiLayerNetwork net) {
        return select(device, e -> e.whyNotConvolutional(net), e -> e.openConvolutional(net, device.slot()));
    }

    /**
     * The device that keeps the {@code nodes} models of a multi-party run and computes their rounds, or null for the
     * CPU (which {@code auto} also gives when no installed engine can run here or keep them).
     *
     * @throws DeviceUnavailableException as {@link #select(ComputeDevice, DenseNetworkSpec)}
     */
    public static DeviceNodeModels selectNodeModels(ComputeDevice device, DenseNetworkSpec spec, int nodes) {
        return select(device, e -> e.whyNotNodeModels(spec, nodes), e -> e.openNodeModels(spec, nodes, device.slot()));
    }

    /**
     * As {@link #selectNodeModels(ComputeDevice, DenseNetworkSpec, int)}, on the device {@code slot} names among the
     * engine's ({@link DeviceEngine#openNodeModels(DenseNetworkSpec, int, DeviceSlot)}), for a {@code device} that
     * names no device by number.
     *
     * @throws DeviceUnavailableException as above
     */
    public static DeviceNodeModels selectNodeModelsOn(java.util.function.Supplier<DeviceSlot> slot, ComputeDevice device,
                                                      DenseNetworkSpec spec, int nodes) {
        if (device.gpu().isPresent()) {
            throw new IllegalArgumentException("--device " + device.label() + " names its GPU itself; place it with"
                    + " selectNodeModels");
        }
        // the slot is read only when an engine opens models: a run that stays on the CPU never reads an assignment
        return select(device, e -> e.whyNotNodeModels(spec, nodes), e -> e.openNodeModels(spec, nodes, slot.get()));
    }

    /**
     * As {@link #selectNodeModels(ComputeDevice, DenseNetworkSpec, int)} for a run that may have to stay on the CPU:
     * with {@code cpuOnly} not null (why it does, e.g. its parties run on blocks), {@code auto} and {@code cpu} give null
     * and {@code cuda} is refused with that reason.
     *
     * @throws DeviceUnavailableException as above, or for {@code cuda} when {@code cpuOnly} is not null
     */
    public static DeviceNodeModels selectNodeModels(ComputeDevice device, DenseNetworkSpec spec, int nodes, String cpuOnly) {
        if (cpuOnly == null) {
            return selectNodeModels(device, spec, nodes);
        }
        if (device.isCuda()) {
            throw new DeviceUnavailableException("--device " + device.label() + ": " + cpuOnly + "; use --device cpu or"
                    + " auto");
        }
        return null;
    }

    private static <T> T select(ComputeDevice device, Function<DeviceEngine, String> whyNot, Function<DeviceEngine, T> open) {
        if (device == ComputeDevice.CPU) {
            return null;
        }
        if (device.isCuda()) {
            DeviceEngine engine = find(device).orElseThrow(() -> new DeviceUnavailableException(
                    "--device " + device.label() + ": " + CUDA_MODULE + "; or use --device cpu"));
            requireUsable(engine, device);
            String why = whyNot.apply(engine);
            if (why != null) {
                throw new DeviceUnavailableException("--device " + device.label() + ": " + why + "; or use --device cpu");
            }
            try {
                return open.apply(engine);
            } catch (DeviceUnavailableException e) {   // e.g. a numbered GPU that is not usable here: say which option
                throw new DeviceUnavailableException("--device " + device.label() + ": " + e.getMessage(), e);
            }
        }
        if (!Nd4j.getEnvironment().isCPU()) {
            return null;   // ND4J's own GPU backend computes the network already
        }
        for (DeviceEngine engine : installed()) {
            if (engine.report().usable() && whyNot.apply(engine) == null) {
                try {
                    T opened = open.apply(engine);
                    // said once per choice: a seeded run here equals the CPU engine's to float rounding, not bit for bit
                    org.slf4j.LoggerFactory.getLogger(DeviceEngines.class).info("--device auto: computing on the {} engine"
                            + " (equal to the CPU engine to float rounding; --device cpu for the CPU engine's numbers bit"
                            + " for bit)", engine.device().label());
                    return opened;
                } catch (DeviceUnavailableException e) {
                    org.slf4j.LoggerFactory.getLogger(DeviceEngines.class).warn("{} engine not used: {}",
                            engine.device().label(), e.getMessage());
                }
            }
        }
        return null;
    }

    /**
     * Refuses a device other than the CPU for a network no device engine computes (convolutions, graphs, ...).
     *
     * @throws DeviceUnavailableException for {@link ComputeDevice#CUDA} and {@link ComputeDevice#cuda(int)}
     */
    static void requireCpuIsEnough(ComputeDevice device, String network) {
        if (device.isCuda()) {
            throw new DeviceUnavailableException("--device " + device.label() + ": dpdl4j's CUDA engine computes float32 networks of dense"
                    + " layers (MLP, logistic and softmax regression) and of convolutions with max pooling (the tanh CNN); "
                    + network + " runs on the CPU: use --device cpu or auto");
        }
    }

    private static void requireUsable(DeviceEngine engine, ComputeDevice device) {
        DeviceEngine.Report report = engine.report();
        if (!report.usable()) {
            throw new DeviceUnavailableException("--device " + device.label() + ": " + report.problem()
                    + "; or use --device cpu");
        }
    }
}
