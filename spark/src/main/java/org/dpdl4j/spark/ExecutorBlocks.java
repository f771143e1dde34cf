package org.dpdl4j.spark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.dpdl4j.optim.AssignedDevice;

/**
 * The blocks opened in this JVM (an executor, or the driver in local mode), by run and block index. A block is
 * opened the first time a task of it runs here and reused by its later tasks, which Spark sends here because the
 * block's partition is cached here. A block lost with its executor is opened again from its plan wherever its next
 * task runs; its rounds depend only on the plan and their inputs, so nothing else is lost.
 */
final class ExecutorBlocks {
    private static final Map<String, AutoCloseable> OPEN = new ConcurrentHashMap<>();

    private ExecutorBlocks() {
    }

    /**
     * The block {@code index} of run {@code run}, opened by {@code open} when this JVM does not hold it yet (on the GPU
     * Spark assigned to the task, if it assigned one: {@link SparkGpus}).
     */
    @SuppressWarnings("unchecked")
    static <W extends AutoCloseable> W get(String run, int index, Supplier<W> open) {
        return (W) OPEN.computeIfAbsent(run + "/" + index, key -> AssignedDevice.during(SparkGpus.assigned(), open));
    }

    /**
     * Closes and forgets every block of {@code run} held in this JVM; a block that fails to close does not keep the
     * others open (their device memory, threads): the first failure is thrown after all were closed.
     */
    static void evict(String run) {
        String prefix = run + "/";
        IllegalStateException failed = null;
        for (String key : OPEN.keySet()) {
            if (key.startsWith(prefix)) {
                AutoCloseable block = OPEN.remove(key);
                if (block != null) {
                    try {
                        block.close();
                    } catch (Exception | Error e) {   // the rest are closed all the same
                        if (failed == null) {
                            failed = new IllegalStateException("closing block " + key + " failed: " + e.getMessage(), e);
                        } else {
                            failed.addSuppressed(e);
                        }
                    }
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
