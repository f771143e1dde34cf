package org.dpdl4j.experiments.diagnostics;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings known to hurt dpdl4j, judged from {@link RuntimeFacts}: each warning says what was seen, what it costs and
 * what to change.
 */
public final class Diagnosis {
    /** The highest compute capability DL4J 1.0.0-M2.1's CUDA 11.6 backend ships binaries for (no PTX). */
    public static final int NEWEST_SUPPORTED_GPU = 86;

    private Diagnosis() {
    }

    public static List<String> warnings(RuntimeFacts f) {
        List<String> w = new ArrayList<>();
        if (f.ompThreadsVariable() == null) {
            w.add("OMP_NUM_THREADS is not set, so ND4J uses " + f.ompThreads() + " OpenMP threads. On machines with few"
                    + " cores one thread per process is 2-4x faster for dpdl4j's small operations; the ./dpdl4j launcher"
                    + " sets OMP_NUM_THREADS=1 unless you set it yourself.");
        }
        if (f.ompThreads() > f.cores()) {
            w.add("ND4J runs " + f.ompThreads() + " OpenMP threads on " + f.cores() + " cores: the threads wait for each other"
                    + " and every operation slows down. Set OMP_NUM_THREADS to " + Math.max(1, f.cores()) + " or fewer.");
        }
        if (f.physicalMax() <= 0) {
            w.add("JavaCPP's physical-memory check is off (org.bytedeco.javacpp.maxphysicalbytes=0): off-heap garbage can"
                    + " then grow until the kernel kills the process. Remove that setting.");
        }
        if (f.machineMemory() > 0 && f.heapMax() + f.offHeapMax() > f.machineMemory()) {
            w.add("the heap (-Xmx " + Bytes.format(f.heapMax()) + ") and the off-heap limit (" + Bytes.format(f.offHeapMax())
                    + ") add up to more than the machine's " + Bytes.format(f.machineMemory()) + " of memory: a large run can be"
                    + " killed by the kernel instead of stopping with an out-of-memory message. Lower them with"
                    + " DPDL4J_JAVA_OPTS=\"-Xmx4g -Dorg.bytedeco.javacpp.maxbytes=4g\".");
        }
        for (int capability : f.gpuCapabilities()) {
            if (capability > NEWEST_SUPPORTED_GPU) {
                w.add("a GPU of compute capability " + capability / 10 + "." + capability % 10 + " is newer than the"
                        + " CUDA backend supports (binaries up to 8.6, no PTX): kernels will fail to launch. Build for the"
                        + " CPU instead (./mvnw -DskipTests package without -Dcuda).");
            }
        }
        return w;
    }
}
