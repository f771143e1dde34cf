package org.dpdl4j.cuda.device;

import org.bytedeco.cuda.global.cublas;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nvrtc;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.SizeTPointer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Finds out whether dpdl4j's CUDA engine can run on this machine: the CUDA libraries, their JNI bindings, the driver
 * and a GPU of compute capability 7.5 or more (what CUDA 13 supports). Never throws: every failure becomes the
 * {@link CudaStatus#problem()} that names what is missing and the fix.
 */
public final class CudaProbe {
    /** CUDA 13 compiles for Turing (sm_75) and later. */
    static final int MIN_CAPABILITY = 75;

    private static volatile CudaStatus cached;
    /** Why cuDNN cannot be used ("" when it can), probed once per JVM after {@link #status()}. */
    private static volatile String cudnnCached;

    private CudaProbe() {
    }

    /** The status of this machine, probed once per JVM. */
    public static CudaStatus status() {
        CudaStatus s = cached;
        if (s == null) {
            synchronized (CudaProbe.class) {
                if (cached == null) {
                    cached = probe();
                }
                s = cached;
            }
        }
        return s;
    }

    /**
     * Null when cuDNN (for convolutional networks) loads here; else what is missing and the fix. Dense networks do not
     * need it.
     */
    public static String cudnnProblem() {
        String s = cudnnCached;
        if (s == null) {
            synchronized (CudaProbe.class) {
                if (cudnnCached == null) {
                    cudnnCached = probeCudnn();
                }
                s = cudnnCached;
            }
        }
        return s.isEmpty() ? null : s;
    }

    /** What the probe found about cuDNN: its libraries and version, for {@code doctor} and the device check. */
    public static List<String> cudnnFacts() {
        List<String> facts = new ArrayList<>();
        CudaLibraries.locate(CudaLibraries.FOR_CONVOLUTIONS).forEach((lib, path) -> facts.add(String.format(Locale.ROOT,
                "%-18s %s", lib, path.map(Path::toString).orElse("not found (" + CudaLibraries.FOR_CONVOLUTIONS.get(lib)
                        + ", for convolutional networks)"))));
        String problem = cudnnProblem();
        facts.add("cuDNN              " + (problem == null ? "version " + org.bytedeco.cuda.global.cudnn.cudnnGetVersion()
                + " loaded: convolutional networks can run" : "not usable: convolutional networks stay on the CPU"));
        return facts;
    }

    private static String probeCudnn() {
        CudaStatus s = status();
        if (!s.usable()) {
            return "the CUDA engine cannot run here: " + s.problem();
        }
        try {
            Loader.load(org.bytedeco.cuda.global.cudnn.class);
            return "";
        } catch (Throwable e) {   // UnsatisfiedLinkError, or the class's initializer failing on it
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            List<String> missing = CudaLibraries.missing(CudaLibraries.FOR_CONVOLUTIONS);
            return "the CUDA engine computes convolutional networks through cuDNN, which cannot be loaded: "
                    + (missing.isEmpty() ? root.toString() : "missing " + String.join(", ", missing)) + "; "
                    + CudaLibraries.HOW_TO_FIX_CUDNN;
        }
    }

    private static CudaStatus probe() {
        List<String> facts = new ArrayList<>();
        Map<String, Optional<Path>> libs = CudaLibraries.locate();
        libs.forEach((lib, path) -> facts.add(String.format(Locale.ROOT, "%-18s %s", lib,
                path.map(Path::toString).orElse("not found (" + CudaLibraries.REQUIRED.get(lib) + ")"))));
        List<String> missing = CudaLibraries.missing();
        String jni = loadBindings(facts);
        if (jni != null) {
            String why = missing.isEmpty() ? jni : "missing " + String.join(", ", missing) + " (" + jni + ")";
            return CudaStatus.unusable(facts, "the CUDA engine cannot load the CUDA libraries: " + why + "; "
                    + CudaLibraries.HOW_TO_FIX);
        }
        int[] version = new int[1];
        int status = cudart.cudaDriverGetVersion(version);
        if (status != cudart.cudaSuccess || version[0] == 0) {
            return CudaStatus.unusable(facts, "no NVIDIA driver answers (cudaDriverGetVersion: " + status + "); install"
                    + " the NVIDIA driver, 580 or later for CUDA 13, or run on a machine with a GPU");
        }
        facts.add("driver             CUDA " + version[0] / 1000 + "." + version[0] % 1000 / 10);
        int[] runtime = new int[1];
        cudart.cudaRuntimeGetVersion(runtime);
        facts.add("runtime            CUDA " + runtime[0] / 1000 + "." + runtime[0] % 1000 / 10);
        int[] nvrtcMajor = new int[1];
        int[] nvrtcMinor = new int[1];
        nvrtc.nvrtcVersion(nvrtcMajor, nvrtcMinor);
        facts.add("NVRTC              " + nvrtcMajor[0] + "." + nvrtcMinor[0]);
        int[] count = new int[1];
        status = cudart.cudaGetDeviceCount(count);
        if (status == cudart.cudaErrorInsufficientDriver) {
            return CudaStatus.unusable(facts, "the NVIDIA driver (CUDA " + version[0] / 1000 + "." + version[0] % 1000 / 10
                    + ") is older than the CUDA " + runtime[0] / 1000 + " runtime; install driver 580 or later");
        }
        if (status != cudart.cudaSuccess || count[0] == 0) {
            return CudaStatus.unusable(facts, "the driver sees no CUDA GPU (cudaGetDeviceCount: "
                    + cudart.cudaGetErrorName(status).getString() + "); check nvidia-smi and CUDA_VISIBLE_DEVICES");
        }
        List<CudaStatus.GpuInfo> gpus = new ArrayList<>();
        for (int d = 0; d < count[0]; d++) {
            gpus.add(describe(d));
        }
        return usableAmong(gpus, facts);
    }

    /**
     * The status of a machine whose driver and libraries work, from its GPUs: those older than CUDA 13 supports are
     * listed and skipped; none left is a problem naming them.
     */
    static CudaStatus usableAmong(List<CudaStatus.GpuInfo> gpus, List<String> facts) {
        List<String> shown = new ArrayList<>(facts);
        List<CudaStatus.GpuInfo> usable = new ArrayList<>();
        for (CudaStatus.GpuInfo info : gpus) {
            boolean supported = info.major() * 10 + info.minor() >= MIN_CAPABILITY;
            shown.add(String.format(Locale.ROOT, "GPU %d              %s, %s, %d SMs, %.1f GiB%s", info.ordinal(),
                    info.name(), info.architecture(), info.processors(), info.memory() / (double) (1L << 30),
                    supported ? "" : " (older than CUDA 13 supports: not used)"));
            if (supported) {
                usable.add(info);
            }
        }
        if (usable.isEmpty()) {
            CudaStatus.GpuInfo first = gpus.get(0);
            return CudaStatus.unusable(shown, (gpus.size() == 1 ? "GPU 0 (" + first.name() + ", " + first.architecture()
                    + ") is" : "every GPU here (" + gpus.size() + ", GPU 0 " + first.name() + ", " + first.architecture()
                    + ") is") + " older than CUDA 13 supports (sm_75 and later); use DL4J's own CUDA backend (build with"
                    + " -Dcuda) on " + (gpus.size() == 1 ? "it" : "them"));
        }
        return new CudaStatus(true, shown, null, usable);
    }

    /** Loads the JNI bindings of cudart, cuBLAS and NVRTC; null when all load, else why not. */
    private static String loadBindings(List<String> facts) {
        for (Class<?> binding : new Class<?>[]{cudart.class, cublas.class, nvrtc.class}) {
            try {
                Loader.load(binding);
            } catch (Throwable e) {   // UnsatisfiedLinkError, or the class's initializer failing on it
                Throwable root = e;
                while (root.getCause() != null) {
                    root = root.getCause();
                }
                String message = binding.getSimpleName() + " bindings: " + root;
                facts.add("bindings           " + message);
                return message;
            }
        }
        facts.add("bindings           cudart, cublas, nvrtc loaded (javacpp " + Loader.class.getPackage().getImplementationVersion() + ")");
        return null;
    }

    private static CudaStatus.GpuInfo describe(int device) {
        int[] v = new int[1];
        CudaCalls.runtime(cudart.cudaDeviceGetAttribute(v, cudart.cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute");
        int major = v[0];
        CudaCalls.runtime(cudart.cudaDeviceGetAttribute(v, cudart.cudaDevAttrComputeCapabilityMinor, device), "cudaDeviceGetAttribute");
        int minor = v[0];
        CudaCalls.runtime(cudart.cudaDeviceGetAttribute(v, cudart.cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
        int sms = v[0];
        CudaCalls.driver(cudart.cuInit(0), "cuInit");
        int[] handle = new int[1];
        CudaCalls.driver(cudart.cuDeviceGet(handle, device), "cuDeviceGet");
        byte[] name = new byte[256];
        CudaCalls.driver(cudart.cuDeviceGetName(name, name.length, handle[0]), "cuDeviceGetName");
        int end = 0;
        while (end < name.length && name[end] != 0) {
            end++;
        }
        SizeTPointer mem = new SizeTPointer(1);
        CudaCalls.driver(cudart.cuDeviceTotalMem(mem, handle[0]), "cuDeviceTotalMem");
        return new CudaStatus.GpuInfo(device, new String(name, 0, end, java.nio.charset.StandardCharsets.UTF_8), major, minor,
                sms, mem.get());
    }
}
