package org.dpdl4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The blocks an executor holds: opened once per run and index, and all closed when the run ends, even if one fails. */
class ExecutorBlocksTest {

    @Test
    void aBlockIsOpenedOnceAndReused() {
        AtomicInteger opened = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        AutoCloseable first = ExecutorBlocks.get("reuse", 0, () -> {
            opened.incrementAndGet();
            return closed::incrementAndGet;
        });
        AutoCloseable again = ExecutorBlocks.get("reuse", 0, () -> {
            opened.incrementAndGet();
            return closed::incrementAndGet;
        });
        assertSame(first, again);
        assertEquals(1, opened.get());
        ExecutorBlocks.evict("reuse");
        assertEquals(1, closed.get());
    }

    /** A block whose close fails (a sticky device error, say) does not keep the run's other blocks open. */
    @Test
    void everyBlockIsClosedWhenOneFailsToClose() {
        AtomicInteger closed = new AtomicInteger();
        AutoCloseable failing = ExecutorBlocks.get("failing", 0, () -> () -> {
            throw new IllegalStateException("cudaFree: an illegal memory access was encountered");
        });
        for (int b = 1; b <= 3; b++) {
            ExecutorBlocks.get("failing", b, () -> closed::incrementAndGet);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ExecutorBlocks.evict("failing"));
        assertTrue(e.getMessage().contains("closing block failing/0 failed") && e.getMessage().contains("illegal memory"),
                e.getMessage());
        assertEquals(3, closed.get(), "the other blocks were closed");
        AutoCloseable reopened = ExecutorBlocks.get("failing", 0, () -> () -> { });
        assertNotSame(failing, reopened, "the failed block was forgotten too");
        ExecutorBlocks.evict("failing");
    }
}
