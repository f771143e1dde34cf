package org.dpdl4j.cuda.device;

import org.bytedeco.cuda.global.nvrtc;
import org.bytedeco.cuda.nvrtc._nvrtcProgram;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.SizeTPointer;
import org.dpdl4j.cuda.engine.KernelSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Compiles the kernel source with NVRTC for one GPU: to a CUBIN for its own architecture ({@code sm_90} on a Hopper),
 * or, when this NVRTC does not know that architecture yet, to PTX for the newest one it knows, which the driver then
 * compiles for the GPU.
 */
final class KernelCompiler {
    private KernelCompiler() {
    }

    /**
     * The compiled image.
     *
     * @param image  a CUBIN or a NUL-terminated PTX text, as cuModuleLoadData takes it
     * @param target what it was compiled for, e.g. {@code sm_90} or {@code compute_90 (PTX)}
     */
    record Compiled(BytePointer image, String target) {
    }

    static Compiled compile(String source, int major, int minor) {
        int capability = major * 10 + minor;
        int[] count = new int[1];
        CudaCalls.nvrtc(nvrtc.nvrtcGetNumSupportedArchs(count), "nvrtcGetNumSupportedArchs");
        int[] archs = new int[count[0]];
        CudaCalls.nvrtc(nvrtc.nvrtcGetSupportedArchs(archs), "nvrtcGetSupportedArchs");
        if (Arrays.stream(archs).anyMatch(a -> a == capability)) {
            return new Compiled(run(source, "--gpu-architecture=sm_" + capability, true), "sm_" + capability);
        }
        int newest = Arrays.stream(archs).filter(a -> a <= capability).max().orElseThrow(() -> new CudaException(
                "this NVRTC compiles for " + Arrays.toString(archs) + ", nothing at or below the GPU's sm_" + capability
                        + "; use the NVRTC of CUDA 13 or later"));
        return new Compiled(run(source, "--gpu-architecture=compute_" + newest, false), "compute_" + newest + " (PTX)");
    }

    private static BytePointer run(String source, String architecture, boolean cubin) {
        _nvrtcProgram program = new _nvrtcProgram();
        CudaCalls.nvrtc(nvrtc.nvrtcCreateProgram(program, new BytePointer(source), new BytePointer(KernelSource.NAME), 0,
                (PointerPointer<?>) null, (PointerPointer<?>) null), "nvrtcCreateProgram");
        try {
            List<String> options = new ArrayList<>(List.of(KernelSource.OPTIONS));
            options.add(architecture);
            // the strings must outlive the compile: the array of pointers to them keeps no Java reference
            BytePointer[] strings = options.stream().map(BytePointer::new).toArray(BytePointer[]::new);
            PointerPointer<BytePointer> opts = new PointerPointer<>(strings);
            int status = nvrtc.nvrtcCompileProgram(program, options.size(), opts);
            java.lang.ref.Reference.reachabilityFence(strings);
            if (status != nvrtc.NVRTC_SUCCESS) {
                throw new CudaException("NVRTC could not compile " + KernelSource.NAME + " with " + options + ": "
                        + nvrtc.nvrtcGetErrorString(status).getString() + "\n" + log(program));
            }
            SizeTPointer size = new SizeTPointer(1);
            BytePointer image;
            if (cubin) {
                CudaCalls.nvrtc(nvrtc.nvrtcGetCUBINSize(program, size), "nvrtcGetCUBINSize");
                image = new BytePointer(size.get());
                CudaCalls.nvrtc(nvrtc.nvrtcGetCUBIN(program, image), "nvrtcGetCUBIN");
            } else {
                CudaCalls.nvrtc(nvrtc.nvrtcGetPTXSize(program, size), "nvrtcGetPTXSize");   // includes the NUL
                image = new BytePointer(size.get());
                CudaCalls.nvrtc(nvrtc.nvrtcGetPTX(program, image), "nvrtcGetPTX");
            }
            return image;
        } finally {
            nvrtc.nvrtcDestroyProgram(program);
        }
    }

    private static String log(_nvrtcProgram program) {
        SizeTPointer size = new SizeTPointer(1);
        if (nvrtc.nvrtcGetProgramLogSize(program, size) != nvrtc.NVRTC_SUCCESS || size.get() <= 1) {
            return "(no compiler log)";
        }
        BytePointer text = new BytePointer(size.get());
        nvrtc.nvrtcGetProgramLog(program, text);
        return text.getString();
    }
}
