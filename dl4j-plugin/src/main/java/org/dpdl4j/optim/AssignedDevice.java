package org.dpdl4j.optim;

import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The accelerator a cluster scheduler assigned to the task that opens blocks on this thread (Spark's GPU address when
 * the application asks for GPUs per task), so that a block takes that device rather than one picked by its index. The
 * assignment is read only when a block opens a device, so that a run on CPUs never depends on it.
 */
public final class AssignedDevice {
    private static final ThreadLocal<Supplier<OptionalInt>> ASSIGNED = new ThreadLocal<>();

    private AssignedDevice() {
    }

    /**
     * Runs {@code open} with {@code device} (read when a device is opened; empty: none) assigned on this thread, then
     * restores what was assigned before.
     */
    public static <T> T during(Supplier<OptionalInt> device, Supplier<T> open) {
        Supplier<OptionalInt> before = ASSIGNED.get();
        ASSIGNED.set(device);
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

    /**
     * The device assigned on this thread, if any.
     *
     * @throws DeviceUnavailableException when the assignment cannot be read as a device number (saying why)
     */
    public static OptionalInt current() {
        Supplier<OptionalInt> d = ASSIGNED.get();
        return d == null ? OptionalInt.empty() : d.get();
    }

    /** Where block {@code block}'s models go: the assigned device when a scheduler assigned one, else by its index. */
    public static DeviceSlot slotFor(int block) {
        OptionalInt assigned = current();
        return assigned.isPresent() ? DeviceSlot.assigned(assigned.getAsInt()) : DeviceSlot.ofBlock(block);
    }
}
