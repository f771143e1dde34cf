package org.dpdl4j.cli;

import java.util.Optional;

/**
 * Recognises a failure to load ND4J's native backend (a CUDA build on a machine without a usable NVIDIA driver, a
 * missing native library) and says what it means and how to get back to a working tool, instead of a stack trace.
 */
final class BackendFailure {
    private BackendFailure() {
    }

    /** The message for a backend failure anywhere in the cause chain of {@code t}, or empty for anything else. */
    static Optional<String> describe(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = String.valueOf(c.getMessage());
            boolean linkage = c instanceof LinkageError;
            boolean cuda = m.contains("libcuda") || m.contains("cuda") || m.contains("jcublas") || m.contains("cudart");
            if (cuda && (linkage || c instanceof RuntimeException)) {
                return Optional.of("this dpdl4j was built with the CUDA backend (nd4j-cuda-11.6), but no usable NVIDIA GPU and"
                        + " driver were found (" + firstLine(m) + "). DL4J 1.0.0-M2.1's CUDA backend needs an NVIDIA driver for"
                        + " CUDA 11.6 or newer and a GPU of compute capability 3.7 to 8.6 (Kepler to Ampere/Ada; not Hopper"
                        + " or later). To run on the CPU, rebuild without -Dcuda: ./mvnw -B -DskipTests package");
            }
            if (linkage && (m.contains("jnind4j") || m.contains("nd4j") || m.contains("openblas"))) {
                return Optional.of("ND4J's native backend could not be loaded (" + firstLine(m) + "). Check that this"
                        + " platform is linux-x86_64 (the one the tool is built for), that the JavaCPP cache directory is"
                        + " writable (-Dorg.bytedeco.javacpp.cachedir=DIR moves it), and run 'dpdl4j doctor'");
            }
            if (m.contains("backend") && m.contains("classpath") && m.toLowerCase(java.util.Locale.ROOT).contains("nd4j")) {
                return Optional.of("no ND4J backend is on the class path (" + firstLine(m) + "). Rebuild the tool: ./mvnw -B"
                        + " -DskipTests package (CPU) or ./mvnw -B -DskipTests -Dcuda package (CUDA)");
            }
        }
        return Optional.empty();
    }

    private static String firstLine(String m) {
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
