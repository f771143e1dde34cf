package org.dpdl4j.cuda.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The CUDA C source of the engine's kernels ({@code dp_step.cu}), as NVRTC compiles it. */
public final class KernelSource {
    /** The resource's name, also the program name NVRTC reports errors under. */
    public static final String NAME = "dp_step.cu";
    /** The most threads one launch runs (its grid-stride loops step by this many at most). */
    public static final int MAX_THREADS = 1 << 22;
    /**
     * The most elements one launch may walk: the kernels' grid-stride loops index in int, and the last index plus one
     * stride ({@link #MAX_THREADS}) must not overflow.
     */
    public static final long MAX_ELEMENTS = Integer.MAX_VALUE - (long) MAX_THREADS;

    /** The kernels' entry points, as {@code extern "C"} names. */
    public static final String[] KERNELS = {"bias_activation", "activation_backprop", "softmax_cross_entropy",
        "sigmoid_cross_entropy", "squared_error", "add_ghost_norms", "clip_errors", "noisy_sgd", "noisy_nesterovs", "add_philox_gaussian", "clip_factors", "scale_by_example",
        "dot_lanes", "add_lane_sums", "im2col", "mix_rows", "gather_rows", "add_philox_rows", "add_philox_listed"};

    /**
     * The compile options besides the architecture: no fused multiply-adds, so that the kernels make the float operations
     * of their Java reference; IEEE division and square root (NVRTC's default, stated so that nobody adds fast math).
     */
    public static final String[] OPTIONS = {"--fmad=false", "--prec-div=true", "--prec-sqrt=true"};

    private KernelSource() {
    }

    public static String text() {
        try (InputStream in = KernelSource.class.getResourceAsStream(NAME)) {
            if (in == null) {
                throw new IllegalStateException(NAME + " is missing from the dpdl4j-cuda jar; rebuild it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kernel source " + NAME, e);
        }
    }
}
