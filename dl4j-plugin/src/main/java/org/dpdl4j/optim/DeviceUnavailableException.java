package org.dpdl4j.optim;

/** A device asked for ({@code --device cuda}) cannot run this network here; the message says why and what to do. */
public final class DeviceUnavailableException extends IllegalStateException {
    public DeviceUnavailableException(String message) {
        super(message);
    }

    public DeviceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
