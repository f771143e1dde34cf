package org.dpdl4j.cuda.device;

import org.bytedeco.cuda.cudart.CUfunc_st;
import org.bytedeco.cuda.cudart.CUmod_st;
import org.bytedeco.cuda.global.cudart;
import org.dpdl4j.cuda.engine.KernelSource;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kernels loaded into one GPU's primary context, compiled once per GPU and JVM (NVRTC takes a second or so; every
 * engine on that GPU shares the module). Call {@link #forDevice} with that GPU's context current.
 */
final class KernelModule {
    private static final Map<Integer, KernelModule> BY_DEVICE = new ConcurrentHashMap<>();

    private final Map<String, CUfunc_st> functions = new HashMap<>();
    private final String target;

    private KernelModule(CudaStatus.GpuInfo gpu) {
        KernelCompiler.Compiled compiled = KernelCompiler.compile(KernelSource.text(), gpu.major(), gpu.minor());
        CUmod_st module = new CUmod_st();
        CudaCalls.driver(cudart.cuModuleLoadData(module, compiled.image()), "cuModuleLoadData (" + compiled.target() + ")");
        for (String name : KernelSource.KERNELS) {
            CUfunc_st f = new CUfunc_st();
            CudaCalls.driver(cudart.cuModuleGetFunction(f, module, name), "cuModuleGetFunction(" + name + ")");
            functions.put(name, f);
        }
        this.target = compiled.target();
    }

    static KernelModule forDevice(CudaStatus.GpuInfo gpu) {
        return BY_DEVICE.computeIfAbsent(gpu.ordinal(), d -> new KernelModule(gpu));
    }

    CUfunc_st function(String name) {
        CUfunc_st f = functions.get(name);
        if (f == null) {
            throw new IllegalArgumentException("no kernel " + name + " in " + KernelSource.NAME);
        }
        return f;
    }

    /** What the kernels were compiled for, e.g. {@code sm_90}. */
    String target() {
        return target;
    }
}
