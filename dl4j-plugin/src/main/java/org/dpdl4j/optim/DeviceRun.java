package org.dpdl4j.optim;

/** A run whose per-example clipping can move to another {@link ComputeDevice} ({@code train --device}). */
public interface DeviceRun {
    /**
     * Computes on {@code device} from the next step on.
     *
     * @throws DeviceUnavailableException when that device cannot compute the run's network here
     */
    void useDevice(ComputeDevice device);
}
