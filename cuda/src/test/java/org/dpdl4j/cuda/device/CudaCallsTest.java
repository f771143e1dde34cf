package org.dpdl4j.cuda.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What a failed CUDA call's message adds (no GPU needed: the advice is chosen from the status alone). */
class CudaCallsTest {

    @Test
    void aKernelsFaultSaysItMayComeFromAnEarlierCallAndHowToFindIt() {
        for (int fault : new int[]{700, 710, 716, 719}) {   // illegal address, assert, misaligned address, launch failure
            String advice = CudaCalls.kernelFaultAdvice(fault);
            assertTrue(advice.contains("CUDA_LAUNCH_BLOCKING=1") && advice.contains("queued before this call")
                    && advice.contains("restart the process"), advice);
        }
    }

    @Test
    void anyOtherStatusAddsNothing() {
        for (int other : new int[]{0, 1, 2, 209, 999}) {   // success, invalid value, out of memory, no kernel image, unknown
            assertEquals("", CudaCalls.kernelFaultAdvice(other));
        }
    }
}
