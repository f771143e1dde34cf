package org.dpdl4j.optim;

/** A run whose per-example clipping can move to another {@link ComputeDevice} ({@code train --device}). */
public interface DeviceRun {
    /**
     * Computes on {@code device} from the next step on.
     *
     * @throws DeviceUnavailableException when that device cannot compute the run's network here
     */
    void useDevice(ComputeDevice device);

    /**
     * Where the run computes, in one line, for its summary: the device and what it keeps there, or the CPU engine (a
     * run left on {@code auto} chooses at its first step). Results on a GPU equal the CPU's to float rounding, not bit
     * for bit, so a run's record says which it was.
     */
    String computedOn();
}
