package org.dpdl4j.cuda.device;

/** A CUDA, cuBLAS or NVRTC call that failed, with the call, the library's name for the error and what to do. */
public final class CudaException extends RuntimeException {
    public CudaException(String message) {
        super(message);
    }

    public CudaException(String message, Throwable cause) {
        super(message, cause);
    }
}
