package org.dpdl4j.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real disk that fills up: a tmpfs of a fixed size, mounted in a user and mount namespace of its own (so no
 * privilege is needed), kept alive by a sleeping process, and reached from this JVM through that process's view of the
 * file system ({@code /proc/<pid>/root}). Writes past its size fail with the operating system's "No space left on
 * device", as on a full disk. A filler file sets how much stays free.
 */
public final class SmallDisk implements AutoCloseable {
    private static final String FILLER = ".filler";

    private final Process holder;
    private final Path root;

    private SmallDisk(Process holder, Path root) {
        this.holder = holder;
        this.root = root;
    }

    /** Why this machine cannot make such a disk, or empty when it can ({@code unshare} and tmpfs in a user namespace). */
    public static Optional<String> unavailable() {
        try {
            Process p = new ProcessBuilder("unshare", "-rm", "true").redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return Optional.of("this machine does not allow a user and mount namespace (unshare -rm: " + output + ")");
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("unshare is not installed (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /**
     * Mounts a tmpfs of {@code bytes} on {@code mountPoint} (an empty directory) in a namespace of its own.
     *
     * @throws IOException when the mount fails
     */
    public static SmallDisk mount(Path mountPoint, long bytes) throws IOException {
        Files.createDirectories(mountPoint);
        String script = "mount -t tmpfs -o size=" + bytes + " tmpfs '" + mountPoint.toAbsolutePath() + "' && echo mounted"
                + " && exec sleep 3600";
        Process p = new ProcessBuilder("unshare", "-rm", "sh", "-c", script).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!"mounted".equals(line)) {
            p.destroyForcibly();
            throw new IOException("cannot mount a tmpfs in a namespace of its own: " + line);
        }
        return new SmallDisk(p, Path.of("/proc", Long.toString(p.pid()), "root").resolve(
                mountPoint.toAbsolutePath().toString().substring(1)));
    }

    /** The disk's top directory, as this JVM reaches it. */
    public Path root() {
        return root;
    }

    /** The size of the disk's blocks (a tmpfs allocates whole pages). */
    public long blockSize() throws IOException {
        return statfs()[1];
    }

    /** Bytes a file may still take. */
    public long free() throws IOException {
        long[] s = statfs();
        return s[0] * s[1];
    }

    /** Fills the disk so that exactly {@code bytes} (a multiple of the block size) stay free. */
    public void leaveFree(long bytes) throws IOException {
        long block = blockSize();
        if (bytes % block != 0) {
            throw new IllegalArgumentException(bytes + " is not a multiple of the block size " + block);
        }
        Files.deleteIfExists(root.resolve(FILLER));
        long fill = free() - bytes;
        if (fill < 0) {
            throw new IllegalArgumentException("only " + free() + " bytes are free, fewer than " + bytes);
        }
        byte[] chunk = new byte[(int) block];
        try (OutputStream o = Files.newOutputStream(root.resolve(FILLER))) {
            for (long written = 0; written < fill; written += block) {
                o.write(chunk);
            }
        }
        if (free() != bytes) {
            throw new IllegalStateException("the disk has " + free() + " bytes free, not " + bytes);
        }
    }

    /** Removes the filler: the disk is as free as its other files allow. */
    public void freeAll() throws IOException {
        Files.deleteIfExists(root.resolve(FILLER));
    }

    /** Available blocks and block size, as {@code stat -f} reads them. */
    private long[] statfs() throws IOException {
        Process p = new ProcessBuilder("stat", "-f", "-c", "%a %S", root.toString()).redirectErrorStream(true).start();
        String[] parts = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().split(" ");
        try {
            p.waitFor(30, TimeUnit.SECONDS);
            return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
        } catch (NumberFormatException | InterruptedException e) {
            throw new IOException("cannot read the free space of " + root + ": " + String.join(" ", parts), e);
        }
    }

    /** Unmounts the disk (its namespace ends with the process that holds it). */
    @Override
    public void close() {
        holder.destroyForcibly();
    }
}
