package org.dpdl4j.optim;

import java.util.Locale;

/**
 * Where a private step's per-example clipping runs: {@link #AUTO} (the default) takes an installed GPU engine when it can
 * run here and computes the network, the CPU otherwise; {@link #CPU} always the CPU; {@link #CUDA} dpdl4j's CUDA engine
 * (module dpdl4j-cuda) or a refusal that says what is missing.
 */
public enum ComputeDevice {
    AUTO, CPU, CUDA;

    /** The device a command line names: auto, cpu or cuda (any case). */
    public static ComputeDevice parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown device '" + text + "'; use auto, cpu or cuda");
        }
    }

    /** The name a command line uses. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
