package org.dpdl4j.cuda.device;

/** The CUDA engine cannot run here; the message names what is missing and how to fix it. */
public final class CudaUnavailableException extends IllegalStateException {
    public CudaUnavailableException(String message) {
        super(message);
    }
}
