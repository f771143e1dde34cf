package org.dpdl4j.optim;

/**
 * Where a block of parties computes, decided on the worker that runs it (a Spark executor, say, with its own GPU):
 * opens the block's node models on a device there, or gives null for the CPU. Travels with the block's plan, so it is
 * serializable.
 */
@FunctionalInterface
public interface BlockDevice extends java.io.Serializable {
    /**
     * The node models of {@code nodes} parties of the network on this worker's device, or null to compute on its CPU.
     *
     * @param block the block's index in its run: a worker with several devices spreads its blocks over them by it,
     *              unless a scheduler assigned the task a device ({@link AssignedDevice})
     * @throws DeviceUnavailableException when the device asked for cannot be used here, saying why
     */
    DeviceNodeModels open(DenseNetworkSpec spec, int nodes, int block);

    /**
     * {@link #open} for block {@code block}, whose {@code parties} (e.g. "clients 0-9") the log names with the device
     * they took; the models are handed to {@code setUp}, which takes them over, and closed if it fails. Null: the block
     * stays on its CPU ({@code setUp} is not called).
     */
    default DeviceNodeModels openFor(DenseNetworkSpec spec, int rows, int block, String parties,
                                     java.util.function.Consumer<DeviceNodeModels> setUp) {
        DeviceNodeModels device = open(spec, rows, block);
        if (device != null) {
            try {
                setUp.accept(device);
            } catch (RuntimeException e) {
                device.close();
                throw e;
            }
            org.slf4j.LoggerFactory.getLogger(BlockDevice.class).info("block {} ({}): {}", block, parties,
                    device.describe());
        }
        return device;
    }

    /**
     * The choice {@code --device} makes, on each worker: {@code auto} takes a GPU of the worker when the engine is usable
     * there and computes the network, {@code cpu} stays on its CPU, {@code cuda} refuses where it cannot run. Which GPU:
     * the one a scheduler assigned to the task that opens the block (it stays there), else block k takes GPU k modulo
     * the worker's usable GPUs.
     *
     * @throws DeviceUnavailableException for a GPU named by number ({@code cuda:N}): it names one GPU of one machine,
     *                                    while blocks take the GPU their task was assigned or spread over each worker's
     */
    static BlockDevice of(ComputeDevice choice) {
        if (choice.gpu().isPresent()) {
            throw new DeviceUnavailableException(numberedGpuRefusal(choice));
        }
        return (spec, nodes, block) -> DeviceEngines.selectNodeModelsOn(() -> AssignedDevice.slotFor(block), choice, spec,
                nodes);
    }

    /** Why blocks cannot take {@code choice}, a GPU named by number. */
    static String numberedGpuRefusal(ComputeDevice choice) {
        return "--device " + choice.label() + " names one GPU of this machine; blocks take the GPU the cluster assigned"
                + " to their task (Spark: spark.task.resource.gpu.amount), else block k takes GPU k modulo its worker's"
                + " usable GPUs: use --device cuda (CUDA_VISIBLE_DEVICES on the workers chooses which GPUs they see)";
    }
}
