package org.dpdl4j.optim;

/**
 * Which of a machine's devices node models or a private step go on: a device named by its number (as CUDA numbers the
 * devices it shows), asked for ({@code --device cuda:1}) or assigned by a cluster scheduler to the task that opens a
 * block; or, without one, a block's index, which an engine takes modulo its usable devices so that the blocks of one
 * process spread over them (a single run's index is 0: the first usable device).
 *
 * @param number   the device's number, or the block's index
 * @param assigned whether the device is named (then it must be that one)
 */
public record DeviceSlot(int number, boolean assigned) {
    public DeviceSlot {
        if (number < 0) {
            throw new IllegalArgumentException((assigned ? "a device number" : "a block's index") + " is at least 0, got "
                    + number);
        }
    }

    /** The device numbered {@code device} (asked for, or assigned by a scheduler). */
    public static DeviceSlot assigned(int device) {
        return new DeviceSlot(device, true);
    }

    /** No assignment: block {@code block}'s place among the devices. */
    public static DeviceSlot ofBlock(int block) {
        return new DeviceSlot(block, false);
    }

    /** The first usable device (a single run's, when none is named). */
    public static DeviceSlot first() {
        return ofBlock(0);
    }
}
