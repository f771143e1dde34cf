package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * A block takes the device a scheduler assigned to its task, else the slot of its index; the assignment is read only
 * when a device is opened, and nothing leaks past a task.
 */
class AssignedDeviceTest {
    @Test
    void withoutAnAssignmentABlockTakesItsIndex() {
        assertTrue(AssignedDevice.current().isEmpty());
        assertEquals(DeviceSlot.ofBlock(3), AssignedDevice.slotFor(3));
    }

    @Test
    void anAssignedDeviceWinsOverTheIndexWhileTheTaskOpensAndIsRestoredAfter() {
        DeviceSlot slot = AssignedDevice.during(() -> OptionalInt.of(1), () -> {
            assertEquals(OptionalInt.of(1), AssignedDevice.current());
            DeviceSlot inner = AssignedDevice.during(OptionalInt::empty, () -> AssignedDevice.slotFor(7));
            assertEquals(DeviceSlot.ofBlock(7), inner, "a nested task without an assignment picks by index");
            assertEquals(OptionalInt.of(1), AssignedDevice.current(), "the outer assignment is back");
            return AssignedDevice.slotFor(5);
        });
        assertEquals(DeviceSlot.assigned(1), slot);
        assertTrue(slot.assigned());
        assertTrue(AssignedDevice.current().isEmpty(), "nothing stays assigned on the thread");
    }

    @Test
    void anAssignmentIsRestoredWhenTheOpeningFails() {
        assertThrows(IllegalStateException.class, () -> AssignedDevice.during(() -> OptionalInt.of(2), () -> {
            throw new IllegalStateException("no room");
        }));
        assertTrue(AssignedDevice.current().isEmpty());
    }

    /** A block that stays on its CPU never reads the assignment, so an unreadable one cannot stop a CPU run. */
    @Test
    void aBlockOnTheCpuNeverReadsTheAssignment() {
        BlockDevice cpu = BlockDevice.of(ComputeDevice.CPU);
        DeviceNodeModels models = AssignedDevice.during(() -> {
            throw new DeviceUnavailableException("an address that is not a device number");
        }, () -> cpu.open(null, 4, 0));
        assertNull(models);
    }

    @Test
    void slotsAreNeverNegative() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceSlot.assigned(-1));
        assertTrue(e.getMessage().contains("device number") && e.getMessage().contains("-1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DeviceSlot.ofBlock(-2));
    }
}
