package org.dpdl4j.runtime.engine;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.dpdl4j.runtime.RoundWorkspace;
import org.nd4j.linalg.api.memory.MemoryWorkspace;

/**
 * The one thread a block computes on. An engine calls a block from whatever thread it has (a cluster's task threads
 * change from round to round), but ND4J's workspaces belong to threads: on a thread of its own, a block's round
 * workspace is allocated once and reused every round, as in one process, and released when the block closes.
 */
public final class WorkerThread implements AutoCloseable {
    private final ExecutorService thread;
    private final RoundWorkspace workspace = new RoundWorkspace();

    /** @param name the thread's name, for thread dumps and profiles */
    public WorkerThread(String name) {
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs one round on the block's thread, inside its round workspace; nothing created there may outlive the call. */
    public <T> T round(Callable<T> work) {
        return call(() -> {
            try (MemoryWorkspace ws = workspace.open()) {
                return work.call();
            }
        });
    }

    private <T> T call(Callable<T> work) {
        Future<T> result = thread.submit(work);
        try {
            return result.get();
        } catch (InterruptedException e) {
            result.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a block computed its round", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause.getMessage(), cause);
        }
    }

    /** Releases the workspace (on its thread) and ends the thread. */
    @Override
    public void close() {
        try {
            call(() -> {
                workspace.close();
                return null;
            });
        } finally {
            thread.shutdownNow();
        }
    }
}
