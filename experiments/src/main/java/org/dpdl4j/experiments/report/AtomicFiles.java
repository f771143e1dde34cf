package org.dpdl4j.experiments.report;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whole-file writes that a crash never leaves half done: the content goes to a temporary file beside the target,
 * is flushed to disk, and is renamed over the target. The temporary file is created like any other file (with the
 * process's default permissions), so every file of a run directory ends up with the same permissions.
 */
public final class AtomicFiles {
    private static final AtomicLong COUNTER = new AtomicLong();

    /** Writes the content of a file to the path it is given. */
    @FunctionalInterface
    public interface Content {
        void writeTo(Path file) throws IOException;
    }

    private AtomicFiles() {
    }

    /**
     * Replaces {@code target} with what {@code content} writes, or leaves it as it was.
     *
     * @throws IOException when the content cannot be written or moved into place
     */
    public static Path replace(Path target, Content content) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Path temporary = dir.resolve("." + target.getFileName() + "." + ProcessHandle.current().pid() + "-"
                + COUNTER.incrementAndGet() + ".tmp");
        try {
            content.writeTo(temporary);
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return target;
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Replaces {@code target} with {@code text} in UTF-8. */
    public static Path replace(Path target, String text) throws IOException {
        return replace(target, file -> Files.writeString(file, text, StandardCharsets.UTF_8));
    }
}
