package org.dpdl4j.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Set;

/**
 * Who may read what a run writes. A run directory holds what must not leak: a checkpoint with every party's model,
 * attack journals and image grids that are near-exact copies of training examples, metrics computed on private data
 * without noise. So by default a run directory is readable by its owner alone (0700) and so is every file in it
 * (0600), whatever the process's umask. Setting the system property {@value #PROPERTY} (or the environment variable
 * {@value #VARIABLE}) to {@code shared} makes them follow the umask instead, for a group that shares results.
 *
 * <p>On a file system without POSIX permissions nothing is changed.
 */
public final class RunFilePermissions {
    /** The system property that chooses the permissions: {@code private} (default) or {@code shared}. */
    public static final String PROPERTY = "dpdl4j.run-files";
    /** The environment variable read when the property is not set. */
    public static final String VARIABLE = "DPDL4J_RUN_FILES";

    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private RunFilePermissions() {
    }

    /** Whether run files are readable by their owner alone (the default). */
    public static boolean ownerOnly() {
        String value = System.getProperty(PROPERTY, System.getenv(VARIABLE));
        if (value == null || value.isBlank() || value.strip().toLowerCase(Locale.ROOT).equals("private")) {
            return true;
        }
        if (value.strip().toLowerCase(Locale.ROOT).equals("shared")) {
            return false;
        }
        throw new IllegalArgumentException(PROPERTY + " (or " + VARIABLE + ") is '" + value + "'; use private (run files"
                + " readable by their owner alone, the default) or shared (they follow the umask)");
    }

    /**
     * Gives an existing file the run files' permissions (for files that a library writes itself, after it wrote them).
     *
     * @throws IOException when they cannot be set
     */
    public static void restrictFile(Path file) throws IOException {
        if (ownerOnly() && isPosix(file)) {
            Files.setPosixFilePermissions(file, OWNER_FILE);
        }
    }

    /** The attributes to create a run file with (none on a file system without POSIX permissions). */
    public static FileAttribute<?>[] fileAttributes(Path file) {
        if (!ownerOnly() || !isPosix(file)) {
            return new FileAttribute<?>[0];
        }
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FILE)};
    }

    /**
     * Makes a run directory readable by its owner alone (when that is the setting), so that whatever any code writes
     * inside it is protected, whatever permissions the file itself gets.
     *
     * @throws UncheckedIOException naming the directory when its permissions cannot be set (it belongs to another user)
     */
    public static void restrictDirectory(Path dir) {
        if (!ownerOnly() || !isPosix(dir)) {
            return;
        }
        try {
            if (!Files.getPosixFilePermissions(dir).equals(OWNER_DIRECTORY)) {
                Files.setPosixFilePermissions(dir, OWNER_DIRECTORY);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the run directory " + dir + " readable by its owner alone ("
                    + e.getMessage() + "); use a directory you own, or set " + VARIABLE + "=shared to leave permissions to"
                    + " the umask", e);
        }
    }

    private static boolean isPosix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
