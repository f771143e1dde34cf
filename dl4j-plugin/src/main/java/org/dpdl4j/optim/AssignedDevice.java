package org.dpdl4j.optim;

import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The accelerator a cluster scheduler assigned to the task that opens blocks on this thread (Spark's GPU address when
 * the application asks for GPUs per task), so that a block takes that device rather than one picked by its index.
 */
public final class AssignedDevice {
    private static final ThreadLocal<Integer> ASSIGNED = new ThreadLocal<>();

    private AssignedDevice() {
    }

    /**
     * Runs {@code open} with {@code device} assigned on this thread (none: the blocks pick by index), then restores what
     * was assigned before.
     */
    public static <T> T during(OptionalInt device, Supplier<T> open) {
        Integer before = ASSIGNED.get();
        if (device.isPresent()) {
            if (device.getAsInt() < 0) {
                throw new IllegalArgumentException("a device number is at least 0, got " + device.getAsInt());
            }
            ASSIGNED.set(device.getAsInt());
        } else {
            ASSIGNED.remove();
        }
        try {
            return open.get();
        } finally {
            if (before == null) {
                ASSIGNED.remove();
            } else {
                ASSIGNED.set(before);
            }
        }
    }

    /** The device assigned on this thread, if any. */
    public static OptionalInt current() {
        Integer d = ASSIGNED.get();
        return d == null ? OptionalInt.empty() : OptionalInt.of(d);
    }

    /**
     * Which of a worker's devices block {@code block} takes: the assigned one when a scheduler assigned one, else the
     * block's index (the engine takes it modulo its devices, so blocks in one process spread over its GPUs).
     */
    public static int slotFor(int block) {
        return current().orElse(block);
    }
}
