package org.dpdl4j.cuda.device;

import java.util.List;

/**
 * What {@link CudaProbe} found: whether the engine can run here, the facts to show ({@code doctor}), and when it cannot,
 * what is missing and how to fix it.
 *
 * @param usable  a GPU the engine supports, its driver and every library it needs are there
 * @param facts   lines such as {@code GPU 0: NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.1 GiB}
 * @param problem null when usable; else what is missing and how to fix it, in one message
 * @param gpus    the GPUs the engine can use (compute capability 7.5 or more), in CUDA's order; empty when not usable
 */
public record CudaStatus(boolean usable, List<String> facts, String problem, List<GpuInfo> gpus) {
    public CudaStatus {
        facts = List.copyOf(facts);
        gpus = List.copyOf(gpus);
        if (usable == gpus.isEmpty()) {
            throw new IllegalArgumentException(usable ? "a usable status names the GPUs to use" : "an unusable status"
                    + " names no GPU to use");
        }
    }

    /** A status that says what is missing: no GPU to use. */
    static CudaStatus unusable(List<String> facts, String problem) {
        return new CudaStatus(false, facts, problem, List.of());
    }

    /** The GPU a single run uses: the first usable one (CUDA_VISIBLE_DEVICES chooses which the driver shows). */
    public GpuInfo device() {
        return gpu(0);
    }

    /**
     * The GPU of {@code slot} among the usable ones (slot modulo their number), so that the blocks of a run spread over
     * a worker's GPUs: block k takes slot k.
     *
     * @throws IllegalStateException when no GPU is usable
     */
    public GpuInfo gpu(int slot) {
        if (gpus.isEmpty()) {
            throw new IllegalStateException("no usable GPU: " + problem);
        }
        return gpus.get(Math.floorMod(slot, gpus.size()));
    }

    /**
     * The usable GPU CUDA numbers {@code ordinal} (asked for, e.g. {@code --device cuda:1}, or the one a scheduler
     * assigned to a task).
     *
     * @throws CudaUnavailableException when CUDA shows no usable GPU of that number, naming the usable ones
     */
    public GpuInfo numbered(int ordinal) {
        for (GpuInfo g : gpus) {
            if (g.ordinal() == ordinal) {
                return g;
            }
        }
        StringBuilder usable = new StringBuilder();
        for (GpuInfo g : gpus) {
            usable.append(usable.length() == 0 ? "" : ", ").append(g.ordinal()).append(" (").append(g.name()).append(')');
        }
        throw new CudaUnavailableException("GPU " + ordinal + " was named (asked for, or assigned by a scheduler), but CUDA"
                + " shows no usable GPU of that number"
                + " here (usable: " + (gpus.isEmpty() ? "none, " + problem : usable) + "): either that GPU is older than"
                + " CUDA 13 supports (sm_75 and later; doctor lists every GPU), or the number is not one of CUDA's"
                + " device numbers, as CUDA_VISIBLE_DEVICES leaves them (with CUDA_DEVICE_ORDER=PCI_BUS_ID they are"
                + " nvidia-smi's indices)");
    }

    /**
     * One GPU.
     *
     * @param ordinal    its CUDA device number
     * @param name       as the driver names it
     * @param major      compute capability, major
     * @param minor      compute capability, minor
     * @param processors streaming multiprocessors
     * @param memory     bytes of device memory
     */
    public record GpuInfo(int ordinal, String name, int major, int minor, int processors, long memory) {
        /** The NVRTC architecture of the device, e.g. {@code sm_90}. */
        public String architecture() {
            return "sm_" + major + minor;
        }
    }
}
