package org.dpdl4j.optim;

/**
 * A device asked for ({@link ComputeDevice#CUDA}, {@code --device cuda} on the command line) cannot run this network
 * here; the message says why and what to do.
 */
public final class DeviceUnavailableException extends IllegalStateException {
    /** @param message why the device cannot run the network, and what to do */
    public DeviceUnavailableException(String message) {
        super(message);
    }

    /**
     * @param message why the device cannot run the network, and what to do
     * @param cause   what failed
     */
    public DeviceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
