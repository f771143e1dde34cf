package org.dpdl4j.cuda.engine;

import org.bytedeco.javacpp.FloatPointer;

/**
 * Where the engine computes: memory, copies between host and device, the BLAS products and the kernels. The CUDA
 * backend ({@code org.dpdl4j.cuda.device.CudaBackend}) runs them on a GPU; {@link JavaBackend} runs the same arithmetic
 * in plain Java, as the reference the tests hold both the GPU and dpdl4j's host engine to.
 *
 * <p>Work is queued in order; a download returns once the values are on the host. Not thread-safe.
 */
public interface Backend extends AutoCloseable {
    /** A new array of {@code length} floats, contents undefined. */
    DeviceArray allocate(long length);

    /** Frees an array this backend allocated (not a slice). */
    void free(DeviceArray array);

    /** Copies {@code dst.length()} floats from {@code src[offset...]} to the device. */
    void upload(float[] src, int offset, DeviceArray dst);

    /** Copies {@code dst.length()} floats from host memory (e.g. an ND4J buffer) to the device. */
    void upload(FloatPointer src, DeviceArray dst);

    /** Copies {@code src.length()} floats to {@code dst[offset...]}, once the work queued before has finished. */
    void download(DeviceArray src, float[] dst, int offset);

    /** Copies {@code src.length()} floats into host memory, once the work queued before has finished. */
    void download(DeviceArray src, FloatPointer dst);

    /** Sets every element to {@code value}. */
    void fill(DeviceArray array, float value);

    Blas blas();

    Kernels kernels();

    /**
     * The convolution and pooling passes (cuDNN on a GPU).
     *
     * @throws IllegalStateException when this backend cannot compute them (e.g. cuDNN is missing), saying why
     */
    Convolutions convolutions();

    /** Waits until the work queued so far has finished. */
    void synchronize();

    /** One line: the device, e.g. {@code NVIDIA H100 80GB HBM3 (sm_90), CUDA driver 13.0}. */
    String describe();

    @Override
    void close();

    /**
     * Runs {@code free} (freeing arrays on {@code backend}), then closes the backend when {@code owned}, even when freeing
     * failed (a CUDA error): its stream and handles go too.
     */
    static void freeThenClose(Runnable free, Backend backend, boolean owned) {
        try {
            free.run();
        } finally {
            if (owned) {
                backend.close();
            }
        }
    }
}
