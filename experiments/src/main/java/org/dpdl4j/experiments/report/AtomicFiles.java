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
import org.dpdl4j.runtime.DirectorySync;
import org.dpdl4j.runtime.RunFilePermissions;

/**
 * Whole-file writes that a crash never leaves half done: the content goes to a temporary file beside the target,
 * is flushed to disk, and is renamed over the target, and the directory is flushed too. The temporary file gets the permissions of run files
 * ({@link RunFilePermissions}: readable by its owner alone by default) before it is renamed, so the target never holds
 * its content under wider permissions (and a run directory, readable by its owner alone, hides the temporary file).
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
            RunFilePermissions.restrictFile(temporary);   // before the content appears under the target's name
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
            DirectorySync.sync(dir);   // the files a run writes in order (statement, then model) reach the disk in order
            return target;
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * Why a write failed, in words: the operating system's reason (e.g. "No space left on device"), found under the
     * wrappers of libraries that write files (ImageIO says "I/O error writing PNG file"), without the temporary
     * file's name, which the caller replaces with the target's.
     */
    public static String reason(Throwable e) {
        Throwable deepest = e;
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof IOException) {
                deepest = c;
            }
        }
        if (deepest instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return deepest.getMessage() != null ? deepest.getMessage() : deepest.getClass().getSimpleName();
    }

    /** Replaces {@code target} with {@code text} in UTF-8. */
    public static Path replace(Path target, String text) throws IOException {
        return replace(target, file -> Files.writeString(file, text, StandardCharsets.UTF_8));
    }
}
