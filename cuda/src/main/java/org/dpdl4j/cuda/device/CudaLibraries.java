package org.dpdl4j.cuda.device;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The shared libraries the engine loads (the bytedeco presets link to the machine's CUDA 13 installation: the JNI
 * library of cudart needs the driver's {@code libcuda.so.1} and {@code libcudart.so.13}, that of cuBLAS
 * {@code libcublas.so.13} and {@code libcublasLt.so.13}, that of NVRTC {@code libnvrtc.so.13}), where each was found,
 * and what to do when one is missing. Found means present where the dynamic loader looks (LD_LIBRARY_PATH, the loader's
 * cache, the usual directories); loading them is {@link CudaProbe}'s job. cuDNN ({@link #FOR_CONVOLUTIONS}) is needed for
 * convolutional networks only.
 */
public final class CudaLibraries {
    /** What each library is, for messages. */
    public static final Map<String, String> REQUIRED = requiredLibraries();

    /** The cuDNN 9 libraries the JNI library of cuDNN needs: for convolutional networks only. */
    public static final Map<String, String> FOR_CONVOLUTIONS = cudnnLibraries();

    /** How to make cuDNN 9 visible. */
    public static final String HOW_TO_FIX_CUDNN = "install cuDNN 9 for CUDA 13 (the pip package nvidia-cudnn-cu13, which"
            + " PyTorch installs; its libraries are in site-packages/nvidia/cudnn/lib) and put its lib folder on"
            + " LD_LIBRARY_PATH (the command above lists it with the others)";

    /** How to make the CUDA 13 libraries of a pip installation of PyTorch (or of the CUDA toolkit) visible. */
    public static final String HOW_TO_FIX = "put the CUDA 13 libraries on LD_LIBRARY_PATH before starting Java: from a"
            + " CUDA 13 toolkit (export LD_LIBRARY_PATH=/usr/local/cuda-13/lib64:$LD_LIBRARY_PATH), or from the pip"
            + " packages that PyTorch installs (nvidia-cuda-runtime, nvidia-cublas, nvidia-cuda-nvrtc; their lib folders"
            + " are under site-packages/nvidia): export LD_LIBRARY_PATH=$(python3 -c \"import nvidia, os; print(':'.join(r"
            + " for b in nvidia.__path__ for r, d, f in os.walk(b) if os.path.basename(r) == 'lib'))\"):$LD_LIBRARY_PATH;"
            + " the NVIDIA driver (580 or later for CUDA 13) provides libcuda.so.1";

    private CudaLibraries() {
    }

    private static Map<String, String> requiredLibraries() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("libcuda.so.1", "the NVIDIA driver");
        m.put("libcudart.so.13", "the CUDA 13 runtime");
        m.put("libcublas.so.13", "cuBLAS 13");
        m.put("libcublasLt.so.13", "cuBLASLt 13, which cuBLAS needs");
        m.put("libnvrtc.so.13", "NVRTC 13, the run-time compiler of the kernels");
        return m;
    }

    private static Map<String, String> cudnnLibraries() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String part : new String[]{"ops", "cnn", "adv", "graph"}) {
            m.put("libcudnn_" + part + ".so.9", "cuDNN 9 (" + part + ")");
        }
        return m;
    }

    /** Each required library with the path it was found at, or empty. */
    public static Map<String, Optional<Path>> locate() {
        return locate(REQUIRED);
    }

    /** Each of {@code libraries} with the path it was found at, or empty. */
    public static Map<String, Optional<Path>> locate(Map<String, String> libraries) {
        List<Path> dirs = searchDirectories();
        Map<String, Path> cache = loaderCache();
        Map<String, Optional<Path>> out = new LinkedHashMap<>();
        for (String lib : libraries.keySet()) {
            Optional<Path> found = dirs.stream().map(d -> d.resolve(lib)).filter(Files::exists).findFirst();
            out.put(lib, found.or(() -> Optional.ofNullable(cache.get(lib))));
        }
        return out;
    }

    /** The required libraries not found, each with what it is; empty when all are there. */
    public static List<String> missing() {
        return missing(REQUIRED);
    }

    /** The libraries of {@code libraries} not found, each with what it is; empty when all are there. */
    public static List<String> missing(Map<String, String> libraries) {
        List<String> out = new ArrayList<>();
        locate(libraries).forEach((lib, path) -> {
            if (path.isEmpty()) {
                out.add(lib + " (" + libraries.get(lib) + ")");
            }
        });
        return out;
    }

    private static List<Path> searchDirectories() {
        List<Path> dirs = new ArrayList<>();
        for (String var : new String[]{System.getenv("LD_LIBRARY_PATH"), System.getProperty("java.library.path")}) {
            if (var != null) {
                for (String d : var.split(File.pathSeparator)) {
                    if (!d.isBlank()) {
                        dirs.add(Path.of(d));
                    }
                }
            }
        }
        for (String d : new String[]{"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/cuda/lib64",
            "/usr/local/cuda-13/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/lib/wsl/lib"}) {
            dirs.add(Path.of(d));
        }
        return dirs;
    }

    /** The dynamic loader's cache ({@code ldconfig -p}): soname to path; empty when ldconfig cannot be run. */
    private static Map<String, Path> loaderCache() {
        Map<String, Path> out = new LinkedHashMap<>();
        for (String ldconfig : new String[]{"/sbin/ldconfig", "/usr/sbin/ldconfig"}) {
            if (!Files.isExecutable(Path.of(ldconfig))) {
                continue;
            }
            try {
                Process p = new ProcessBuilder(ldconfig, "-p").redirectErrorStream(true).start();
                String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                p.waitFor(5, TimeUnit.SECONDS);
                for (String line : text.split("\n")) {
                    // "	libcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1"
                    int arrow = line.indexOf("=>");
                    if (arrow > 0 && line.contains("x86-64")) {
                        String name = line.strip().split(" ")[0];
                        out.putIfAbsent(name, Path.of(line.substring(arrow + 2).strip()));
                    }
                }
            } catch (IOException e) {
                // no cache to read: the directories above are all there is
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            break;
        }
        return out;
    }
}
