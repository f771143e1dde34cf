package org.dpdl4j.cuda.check;

import java.io.PrintStream;

/**
 * The parts of a device check, each run on its own: one that throws (a CUDA error, a library that fails to load) prints
 * an {@code ERROR} line, is counted, and the next part still runs; a benchmark that would start past the deadline is
 * skipped with a {@code SKIP} line, so that what was measured so far is printed within the machine's time limit.
 */
final class CheckParts {
    private final PrintStream out;
    private final long start;
    private final double deadlineSeconds;
    private int errors;

    CheckParts(PrintStream out, long start, double deadlineSeconds) {
        this.out = out;
        this.start = start;
        this.deadlineSeconds = deadlineSeconds;
    }

    /** Runs a correctness part; returns its failures (0 when it stopped with an error, which is counted as one). */
    int check(String name, java.util.function.IntSupplier part) {
        try {
            return part.getAsInt();
        } catch (RuntimeException | Error e) {   // a CUDA error, a library that fails to load, memory run out
            error(name, e);
            return 0;
        }
    }

    /** Runs a benchmark unless the deadline has passed (a SKIP line then says so). */
    void benchmark(String name, Runnable part) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        if (deadlineSeconds > 0 && elapsed > deadlineSeconds) {
            out.printf(java.util.Locale.ROOT, "SKIP %s benchmark: past the deadline (%.0f s of %.0f s)%n", name,
                    elapsed, deadlineSeconds);
            return;
        }
        check(name, () -> {
            part.run();
            return 0;
        });
    }

    /** Prints and counts an error that stopped part {@code name}: the exception, its first frames and its causes. */
    void error(String name, Throwable e) {
        errors++;
        out.println("ERROR " + name + ": " + e);
        StackTraceElement[] trace = e.getStackTrace();
        for (int i = 0; i < Math.min(8, trace.length); i++) {
            out.println("#   at " + trace[i]);
        }
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            out.println("#   caused by " + c);
        }
        out.flush();
    }

    /** How many parts stopped with an error. */
    int errors() {
        return errors;
    }
}
