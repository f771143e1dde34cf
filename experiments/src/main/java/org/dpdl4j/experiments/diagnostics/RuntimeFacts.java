package org.dpdl4j.experiments.diagnostics;

import org.bytedeco.javacpp.Pointer;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What this JVM and its ND4J backend run on, read once: the facts {@code dpdl4j doctor} prints and {@link Diagnosis}
 * judges.
 *
 * @param javaVersion        {@code java.version}
 * @param javaVm             the VM's name
 * @param javaHome           {@code java.home}
 * @param backend            ND4J's backend class
 * @param cpuBackend         whether it is the CPU backend
 * @param devices            one line per device (the CPU; each GPU with its compute capability and memory)
 * @param gpuCapabilities    compute capabilities of the GPUs as major * 10 + minor (empty on the CPU backend)
 * @param blasVendor         the BLAS library ND4J calls
 * @param ompThreadsVariable {@code OMP_NUM_THREADS} as set, or null
 * @param ompThreads         the threads ND4J's native code uses
 * @param cores              processors the JVM sees
 * @param heapMax            -Xmx in bytes
 * @param offHeapMax         JavaCPP's limit on native memory (org.bytedeco.javacpp.maxbytes)
 * @param physicalMax        JavaCPP's limit on the process's resident memory (maxphysicalbytes; 0 = check off)
 * @param machineMemory      the machine's physical memory
 * @param availableMemory    physical memory available now
 */
public record RuntimeFacts(String javaVersion, String javaVm, String javaHome, String backend, boolean cpuBackend,
                           List<String> devices, List<Integer> gpuCapabilities, String blasVendor, String ompThreadsVariable,
                           int ompThreads, int cores, long heapMax, long offHeapMax, long physicalMax, long machineMemory,
                           long availableMemory) {
    public RuntimeFacts {
        devices = List.copyOf(devices);
        gpuCapabilities = List.copyOf(gpuCapabilities);
    }

    /** Reads the facts of this JVM (this initialises ND4J's backend). */
    public static RuntimeFacts probe() {
        Properties env = Nd4j.getExecutioner().getEnvironmentInformation();
        boolean cpu = Nd4j.getEnvironment().isCPU();
        int cores = Runtime.getRuntime().availableProcessors();
        List<String> devices = new ArrayList<>();
        List<Integer> capabilities = new ArrayList<>();
        if (cpu) {
            devices.add("CPU, " + cores + " cores");
        } else if (env.get("cuda.devicesInformation") instanceof List<?> gpus) {
            for (Object o : gpus) {
                if (o instanceof Map<?, ?> gpu) {
                    int major = number(gpu.get("cuda.deviceMajor"));
                    int minor = number(gpu.get("cuda.deviceMinor"));
                    capabilities.add(major * 10 + minor);
                    devices.add(gpu.get("cuda.deviceName") + ", compute capability " + major + "." + minor + ", "
                            + Bytes.format(number(gpu.get("cuda.totalMemory"))) + " memory");
                }
            }
        }
        String blas = String.valueOf(env.getOrDefault("blas.vendor", Nd4j.factory().blas().getBlasVendor()));
        return new RuntimeFacts(System.getProperty("java.version"), System.getProperty("java.vm.name"),
                System.getProperty("java.home"), Nd4j.getBackend().getClass().getName(), cpu, devices, capabilities, blas,
                System.getenv("OMP_NUM_THREADS"), Nd4j.getEnvironment().maxThreads(), cores, Runtime.getRuntime().maxMemory(),
                Pointer.maxBytes(), Pointer.maxPhysicalBytes(), Pointer.totalPhysicalBytes(), Pointer.availablePhysicalBytes());
    }

    private static int number(Object o) {
        return o instanceof Number n ? n.intValue() : -1;
    }
}
