package org.dpdl4j.optim;

/**
 * Which of a worker's devices a block's node models go on: the device a cluster scheduler assigned to the task that
 * opens the block (a device number, as CUDA numbers the devices it shows), or, without an assignment, the block's index,
 * which an engine takes modulo its usable devices so that the blocks of one process spread over them.
 *
 * @param number   the assigned device number, or the block's index
 * @param assigned whether a scheduler assigned the device (then it must be that one)
 */
public record DeviceSlot(int number, boolean assigned) {
    public DeviceSlot {
        if (number < 0) {
            throw new IllegalArgumentException((assigned ? "a device number" : "a block's index") + " is at least 0, got "
                    + number);
        }
    }

    /** The device a scheduler assigned. */
    public static DeviceSlot assigned(int device) {
        return new DeviceSlot(device, true);
    }

    /** No assignment: block {@code block}'s place among the devices. */
    public static DeviceSlot ofBlock(int block) {
        return new DeviceSlot(block, false);
    }

    /** The first device (a single run's). */
    public static DeviceSlot first() {
        return ofBlock(0);
    }
}
