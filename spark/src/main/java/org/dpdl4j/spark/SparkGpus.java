package org.dpdl4j.spark;

import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;

/**
 * The GPU Spark assigned to the running task, when the application asks for GPUs per task
 * ({@code spark.executor.resource.gpu.amount}, {@code spark.task.resource.gpu.amount} and a discovery script): a block
 * opened by that task computes on it instead of picking a GPU by its index, and stays there (later tasks of the block
 * reuse it where it is open). A task given several GPUs uses the first.
 */
final class SparkGpus {
    /** Spark's name for the resource. */
    static final String GPU = "gpu";

    private SparkGpus() {
    }

    /**
     * The GPU assigned to the task running on this thread, read when asked for (a run whose blocks stay on their CPUs
     * never parses it); empty outside a task or when Spark assigns none.
     */
    static Supplier<OptionalInt> assigned() {
        TaskContext task = TaskContext.get();
        Map<String, ResourceInformation> resources = task == null ? null : task.resourcesJMap();
        return () -> assigned(resources);
    }

    /**
     * The first GPU address among a task's resources, as a CUDA device number.
     *
     * @throws org.dpdl4j.optim.DeviceUnavailableException when the address is not a device number, naming it and the fix
     *                                                     (under {@code --device auto} the block then stays on its CPU,
     *                                                     saying why)
     */
    static OptionalInt assigned(Map<String, ResourceInformation> resources) {
        ResourceInformation gpu = resources == null ? null : resources.get(GPU);
        if (gpu == null || gpu.addresses().length == 0) {
            return OptionalInt.empty();
        }
        String address = gpu.addresses()[0].trim();
        try {
            int device = Integer.parseInt(address);
            if (device >= 0) {
                return OptionalInt.of(device);
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new org.dpdl4j.optim.DeviceUnavailableException("Spark assigned this task GPU address '" + address + "', which is not a CUDA"
                + " device number: make the GPU discovery script print CUDA's device numbers (0, 1, ...; with"
                + " CUDA_DEVICE_ORDER=PCI_BUS_ID they are nvidia-smi's --query-gpu=index)");
    }
}
