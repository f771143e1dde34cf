package org.dpdl4j.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** What {@code --device} names: auto, cpu, cuda (the first usable GPU) and cuda:N (GPU N), and the refusals. */
class ComputeDeviceTest {

    @Test
    void namesParseToTheirDevicesAndBack() {
        assertSame(ComputeDevice.AUTO, ComputeDevice.parse("auto"));
        assertSame(ComputeDevice.CPU, ComputeDevice.parse(" CPU "));
        assertSame(ComputeDevice.CUDA, ComputeDevice.parse("Cuda"));
        ComputeDevice second = ComputeDevice.parse("cuda:1");
        assertEquals(ComputeDevice.cuda(1), second);
        assertEquals(ComputeDevice.cuda(1).hashCode(), second.hashCode());
        assertNotEquals(ComputeDevice.CUDA, second);
        assertNotEquals(ComputeDevice.cuda(0), ComputeDevice.CUDA, "cuda:0 must be GPU 0, cuda the first usable GPU");
        for (String name : new String[]{"auto", "cpu", "cuda", "cuda:0", "cuda:12"}) {
            assertEquals(name, ComputeDevice.parse(name).label());
        }
    }

    @Test
    void aNumberedGpuIsCudaOnThatGpuOthersNameNone() {
        ComputeDevice third = ComputeDevice.cuda(2);
        assertTrue(third.isCuda());
        assertEquals(ComputeDevice.Kind.CUDA, third.kind());
        assertEquals(OptionalInt.of(2), third.gpu());
        assertEquals(DeviceSlot.assigned(2), third.slot());
        for (ComputeDevice d : new ComputeDevice[]{ComputeDevice.AUTO, ComputeDevice.CPU, ComputeDevice.CUDA}) {
            assertEquals(OptionalInt.empty(), d.gpu(), d.label());
            assertEquals(DeviceSlot.first(), d.slot(), d.label());
        }
        assertTrue(ComputeDevice.CUDA.isCuda());
        assertFalse(ComputeDevice.AUTO.isCuda() || ComputeDevice.CPU.isCuda());
    }

    @Test
    void badNamesAreRefusedSayingWhatIsAccepted() {
        for (String bad : new String[]{"tpu", "gpu", "cpu:1", "auto:0"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ComputeDevice.parse(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("auto, cpu, cuda or cuda:N"),
                    e.getMessage());
        }
        for (String bad : new String[]{"cuda:", "cuda:-1", "cuda:one", "cuda:1.5", "cuda:99999"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ComputeDevice.parse(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("e.g. cuda:1"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> ComputeDevice.cuda(-1));
    }

    /** A run's plan carries its device to the workers: the shared devices come back as the same constants. */
    @Test
    void devicesTravelAndTheSharedOnesStayTheConstants() throws Exception {
        for (ComputeDevice d : new ComputeDevice[]{ComputeDevice.AUTO, ComputeDevice.CPU, ComputeDevice.CUDA}) {
            assertSame(d, roundTrip(d));
        }
        assertEquals(ComputeDevice.cuda(3), roundTrip(ComputeDevice.cuda(3)));
    }

    /** Spark's blocks take the GPU assigned to their task or spread over their worker's: a GPU number is refused. */
    @Test
    void blocksRefuseANumberedGpu() {
        DeviceUnavailableException e = assertThrows(DeviceUnavailableException.class,
                () -> BlockDevice.of(ComputeDevice.cuda(1)));
        assertTrue(e.getMessage().startsWith("--device cuda:1 names one GPU of this machine")
                && e.getMessage().contains("use --device cuda"), e.getMessage());
    }

    private static ComputeDevice roundTrip(ComputeDevice d) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(d);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (ComputeDevice) in.readObject();
        }
    }
}
