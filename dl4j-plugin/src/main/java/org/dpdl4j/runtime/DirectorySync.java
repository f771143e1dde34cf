package org.dpdl4j.runtime;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes a rename durable: a file renamed into a directory is on the disk only once the directory is, so a power loss
 * after two renames (a statement, then the model it covers) cannot keep the second and lose the first.
 */
public final class DirectorySync {
    private DirectorySync() {
    }

    /** Flushes {@code dir} to the disk where the platform allows opening a directory (not every one does). */
    public static void sync(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // the platform cannot sync a directory: the file itself is on the disk, its name as durable as the OS makes it
        }
    }
}
