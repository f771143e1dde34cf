package org.dpdl4j.cuda.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which GPUs of a machine the engine uses, and which one a block's slot takes (no GPU needed: the probe's decision). */
class CudaStatusTest {
    private static final CudaStatus.GpuInfo PASCAL = new CudaStatus.GpuInfo(0, "Tesla P100", 6, 0, 56, 16L << 30);
    private static final CudaStatus.GpuInfo HOPPER_1 = new CudaStatus.GpuInfo(1, "NVIDIA H100", 9, 0, 132, 80L << 30);
    private static final CudaStatus.GpuInfo HOPPER_2 = new CudaStatus.GpuInfo(2, "NVIDIA H200", 9, 0, 132, 141L << 30);

    @Test
    void gpusOlderThanCuda13SupportsAreListedAndSkipped() {
        CudaStatus s = CudaProbe.usableAmong(List.of(PASCAL, HOPPER_1, HOPPER_2), List.of("driver CUDA 13.0"));
        assertTrue(s.usable());
        assertEquals(List.of(HOPPER_1, HOPPER_2), s.gpus());
        assertEquals(HOPPER_1, s.device(), "a single run takes the first usable GPU");
        assertEquals(4, s.facts().size());
        assertTrue(s.facts().get(1).startsWith("GPU 0") && s.facts().get(1).contains("not used"), s.facts().get(1));
        assertFalse(s.facts().get(2).contains("not used"), s.facts().get(2));
    }

    @Test
    void blocksSpreadOverTheUsableGpusBySlot() {
        CudaStatus s = CudaProbe.usableAmong(List.of(PASCAL, HOPPER_1, HOPPER_2), List.of());
        assertEquals(HOPPER_1, s.gpu(0));
        assertEquals(HOPPER_2, s.gpu(1));
        assertEquals(HOPPER_1, s.gpu(2), "slot modulo the usable GPUs");
        assertEquals(HOPPER_2, s.gpu(5));
        assertEquals(HOPPER_1, s.gpu(-2), "never a negative index");
    }

    /**
     * A GPU named by number (asked for, or assigned by a scheduler) is the one CUDA numbers so, not the one at that place
     * among the usable ones.
     */
    @Test
    void anAssignedGpuIsTheOneOfThatNumber() {
        CudaStatus s = CudaProbe.usableAmong(List.of(PASCAL, HOPPER_1, HOPPER_2), List.of());
        assertEquals(HOPPER_1, s.numbered(1));
        assertEquals(HOPPER_2, s.numbered(2));
        for (int skippedOrAbsent : new int[]{0, 3}) {
            CudaUnavailableException e = assertThrows(CudaUnavailableException.class, () -> s.numbered(skippedOrAbsent));
            assertTrue(e.getMessage().contains("GPU " + skippedOrAbsent + " was named")
                    && e.getMessage().contains("usable: 1 (NVIDIA H100), 2 (NVIDIA H200)")
                    && e.getMessage().contains("older than CUDA 13 supports")
                    && e.getMessage().contains("CUDA_DEVICE_ORDER=PCI_BUS_ID"), e.getMessage());
        }
    }

    @Test
    void noSupportedGpuIsAProblemThatNamesIt() {
        CudaStatus s = CudaProbe.usableAmong(List.of(PASCAL), List.of());
        assertFalse(s.usable());
        assertTrue(s.gpus().isEmpty());
        assertTrue(s.problem().contains("Tesla P100") && s.problem().contains("sm_60") && s.problem().contains("-Dcuda"),
                s.problem());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.gpu(0));
        assertTrue(e.getMessage().contains("Tesla P100"), e.getMessage());
    }

    @Test
    void aStatusSaysUsableExactlyWhenItNamesGpus() {
        assertThrows(IllegalArgumentException.class, () -> new CudaStatus(true, List.of(), null, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new CudaStatus(false, List.of(), "why", List.of(HOPPER_1)));
    }
}
