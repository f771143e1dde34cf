package org.dpdl4j.cuda.device;

import org.dpdl4j.cuda.engine.DeviceArray;

/**
 * One kernel launch being put together: its arguments in the order and C types of the kernel's signature, then the
 * launch. {@link KernelLaunch} queues it on the GPU; the tests record it to hold {@link CudaKernels} to the signatures
 * of {@code dp_step.cu}.
 */
interface KernelCall {
    /** Starts a new argument list. */
    KernelCall args();

    /** A device pointer ({@code float*}, {@code const float*}); null for the kernels' "absent". */
    KernelCall ptr(DeviceArray a);

    /** An {@code int}. */
    KernelCall i32(int v);

    /** A {@code float}. */
    KernelCall f32(float v);

    /** A {@code double}. */
    KernelCall f64(double v);

    /** An {@code unsigned long long}. */
    KernelCall u64(long v);

    /** Launches the kernel over {@code work} outputs (nothing for none). */
    void launch(String kernel, long work);
}
