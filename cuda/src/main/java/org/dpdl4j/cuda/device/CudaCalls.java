package org.dpdl4j.cuda.device;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.cuda.global.cublas;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nvrtc;

/** Turns the status codes of the CUDA runtime, the driver API, cuBLAS, cuDNN and NVRTC into exceptions that name the call. */
final class CudaCalls {
    private CudaCalls() {
    }

    /** A CUDA runtime call ({@code cuda...}). */
    static void runtime(int status, String call) {
        if (status != cudart.cudaSuccess) {
            throw new CudaException(call + " failed: " + text(cudart.cudaGetErrorName(status)) + " ("
                    + text(cudart.cudaGetErrorString(status)) + ")" + kernelFaultAdvice(status));
        }
    }

    /** A CUDA driver call ({@code cu...}). */
    static void driver(int status, String call) {
        if (status != 0) {
            BytePointer name = new BytePointer((BytePointer) null);
            BytePointer text = new BytePointer((BytePointer) null);
            String n = cudart.cuGetErrorName(status, name) == 0 ? name.getString() : "CUresult " + status;
            String t = cudart.cuGetErrorString(status, text) == 0 ? text.getString() : "";
            throw new CudaException(call + " failed: " + n + (t.isEmpty() ? "" : " (" + t + ")") + kernelFaultAdvice(status));
        }
    }

    /** A cuBLAS call. */
    static void cublas(int status, String call) {
        if (status != cublas.CUBLAS_STATUS_SUCCESS) {
            throw new CudaException(call + " failed: " + text(cublas.cublasGetStatusString(status)) + " (status " + status + ")");
        }
    }

    /** An NVRTC call. */
    static void nvrtc(int status, String call) {
        if (status != nvrtc.NVRTC_SUCCESS) {
            throw new CudaException(call + " failed: " + text(nvrtc.nvrtcGetErrorString(status)));
        }
    }

    /** A cuDNN call. */
    static void cudnn(int status, String call) {
        if (status != org.bytedeco.cuda.global.cudnn.CUDNN_STATUS_SUCCESS) {
            throw new CudaException(call + " failed: " + text(org.bytedeco.cuda.global.cudnn.cudnnGetErrorString(status))
                    + " (status " + status + ")");
        }
    }

    /** The faults of a kernel (the runtime's and the driver's codes are the same numbers). */
    private static final java.util.Set<Integer> KERNEL_FAULTS = java.util.Set.of(cudart.cudaErrorIllegalAddress,
            cudart.cudaErrorLaunchTimeout, cudart.cudaErrorAssert, cudart.cudaErrorHardwareStackError,
            cudart.cudaErrorIllegalInstruction, cudart.cudaErrorMisalignedAddress, cudart.cudaErrorInvalidAddressSpace,
            cudart.cudaErrorInvalidPc, cudart.cudaErrorLaunchFailure);

    /**
     * What to add to the message of a kernel's fault: kernels run asynchronously, so the call that reports it (often the
     * next synchronisation) is not the one that caused it, and the context is lost. Empty for any other status.
     */
    static String kernelFaultAdvice(int status) {
        return !KERNEL_FAULTS.contains(status) ? "" : "; a kernel faulted, and kernels run asynchronously: the cause may be"
                + " any kernel or copy queued before this call. Rerun with CUDA_LAUNCH_BLOCKING=1 to have the call that caused"
                + " it fail instead, and restart the process (the device context is lost after a fault)";
    }

    private static String text(BytePointer p) {
        return p == null || p.isNull() ? "unknown error" : p.getString();
    }
}
