package org.dpdl4j.cuda.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The CUDA libraries this process has loaded, by path, from {@code /proc/self/maps}: JavaCPP may load a library from
 * its own search path (a CUDA toolkit's lib64) before the folders on {@code LD_LIBRARY_PATH}, so what {@link CudaProbe}
 * found is not always what runs; the device check prints these to tell.
 */
public final class LoadedLibraries {
    private static final Pattern CUDA = Pattern.compile(
            "lib(cuda|cudart|cublas|cublasLt|nvrtc|nvrtc-builtins|nvJitLink|cudnn|cudnn_[a-z_]+)\\.so(\\.[0-9.]+)?");

    private LoadedLibraries() {
    }

    /** The CUDA libraries mapped into this process, each once, in the order of the map; empty where it cannot tell. */
    public static List<String> cuda() {
        try {
            return cuda(Files.readAllLines(Path.of("/proc/self/maps")));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The paths of CUDA libraries in the lines of a {@code /proc/PID/maps} file, each once, in order. */
    static List<String> cuda(List<String> maps) {
        return maps.stream().map(line -> {
            int slash = line.indexOf('/');
            return slash < 0 ? "" : line.substring(slash).strip();
        }).filter(path -> !path.isEmpty() && CUDA.matcher(Path.of(path).getFileName().toString()).matches())
                .distinct().toList();
    }
}
