package org.dpdl4j.runtime;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How much this process's peak resident memory grows while an action runs, from Linux's {@code /proc/self/status}
 * (the peak is reset through {@code /proc/self/clear_refs} first): what the memory estimates are checked against, since
 * ND4J's native arrays are not counted by JavaCPP ({@code Pointer.totalBytes()} does not grow with them). Tests that
 * use it are skipped where there is no such file.
 */
public final class PeakResidentMemory {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");
    private static final String REPORT = "peak-resident-growth=";

    private PeakResidentMemory() {
    }

    /**
     * What {@link #of} measures in the {@code main} of {@code program} run in a JVM of its own (with this test's class
     * path): in the test's own JVM, memory that earlier tests freed but the C library kept would serve part of the
     * action without growing the resident size. The program reports its measurement through {@link #report}.
     */
    public static long inFreshJvm(Class<?> program, String... args) {
        assumeTrue(Files.isReadable(STATUS) && Files.isWritable(CLEAR_REFS), "needs Linux's /proc/self to measure memory");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx2g", "-Dorg.bytedeco.javacpp.maxbytes=4g", "-cp", System.getProperty("java.class.path"), program.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("OMP_NUM_THREADS", "1");
        try {
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new IllegalStateException(program.getSimpleName() + " failed:\n" + output);
            }
            return output.lines().filter(l -> l.startsWith(REPORT)).mapToLong(l -> Long.parseLong(l.substring(REPORT.length())))
                    .findFirst().orElseThrow(() -> new IllegalStateException(program.getSimpleName() + " reported nothing:\n" + output));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Measures {@code action} and prints the line {@link #inFreshJvm} reads: for the {@code main} of a measured program. */
    public static void report(Runnable action) {
        System.out.println(REPORT + of(action));
    }

    /** Bytes the peak resident size grew by while {@code action} ran, from the resident size after a collection. */
    public static long of(Runnable action) {
        assumeTrue(Files.isReadable(STATUS) && Files.isWritable(CLEAR_REFS), "needs Linux's /proc/self to measure memory");
        collectGarbage();
        long before = field("VmRSS:");
        write(CLEAR_REFS, "5");   // resets VmHWM to the current resident size
        action.run();
        return field("VmHWM:") - before;
    }

    private static void collectGarbage() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            try {
                Thread.sleep(100);   // the deallocator thread frees the native memory of collected arrays
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static long field(String name) {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith(name)) {
                    return Long.parseLong(line.substring(name.length()).replace("kB", "").strip()) * 1024;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException(name + " is not in " + STATUS);
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
