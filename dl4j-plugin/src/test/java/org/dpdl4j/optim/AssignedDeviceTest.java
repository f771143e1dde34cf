package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A block takes the device a scheduler assigned to its task, else the slot of its index; nothing leaks past a task. */
class AssignedDeviceTest {
    @Test
    void withoutAnAssignmentABlockTakesItsIndex() {
        assertTrue(AssignedDevice.current().isEmpty());
        assertEquals(3, AssignedDevice.slotFor(3));
    }

    @Test
    void anAssignedDeviceWinsOverTheIndexWhileTheTaskOpensAndIsRestoredAfter() {
        int slot = AssignedDevice.during(OptionalInt.of(1), () -> {
            assertEquals(OptionalInt.of(1), AssignedDevice.current());
            int inner = AssignedDevice.during(OptionalInt.empty(), () -> AssignedDevice.slotFor(7));
            assertEquals(7, inner, "a nested task without an assignment picks by index");
            assertEquals(OptionalInt.of(1), AssignedDevice.current(), "the outer assignment is back");
            return AssignedDevice.slotFor(5);
        });
        assertEquals(1, slot);
        assertTrue(AssignedDevice.current().isEmpty(), "nothing stays assigned on the thread");
    }

    @Test
    void anAssignmentIsRestoredWhenTheOpeningFails() {
        assertThrows(IllegalStateException.class, () -> AssignedDevice.during(OptionalInt.of(2), () -> {
            throw new IllegalStateException("no room");
        }));
        assertTrue(AssignedDevice.current().isEmpty());
    }

    @Test
    void aNegativeDeviceIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AssignedDevice.during(OptionalInt.of(-1), () -> 0));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
    }
}
