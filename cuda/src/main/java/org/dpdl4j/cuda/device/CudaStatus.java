package org.dpdl4j.cuda.device;

import java.util.List;

/**
 * What {@link CudaProbe} found: whether the engine can run here, the facts to show ({@code doctor}), and when it cannot,
 * what is missing and how to fix it.
 *
 * @param usable  a GPU the engine supports, its driver and every library it needs are there
 * @param facts   lines such as {@code GPU 0: NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.1 GiB}
 * @param problem null when usable; else what is missing and how to fix it, in one message
 * @param device  the GPU the engine would use, or null
 */
public record CudaStatus(boolean usable, List<String> facts, String problem, GpuInfo device) {
    public CudaStatus {
        facts = List.copyOf(facts);
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
