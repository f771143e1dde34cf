package org.dpdl4j.data.io;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Why a path that should be a readable data file is not one, with the words for a message.
 *
 * <p>The decision ({@link #classify}) is separate from asking the file system ({@link Facts#of}),
 * so it can be tested without the operating system's cooperation: as root, for example, a file
 * without read permission is still readable.
 */
public enum FileProblem {
    /** Nothing at the path. */
    MISSING("does not exist", "check the path"),
    /** A file where one of the directories above the path should be, so nothing can be there. */
    UNDER_A_FILE("cannot exist: a path above it is a file, not a directory",
            "check the path: every part above the file must be a directory"),
    /** A directory where a file should be. */
    DIRECTORY("is a directory, not a file", "give the path of the file itself, or move the directory out of its place"),
    /** Something that is neither a file nor a directory (a device, pipe or socket). */
    NOT_A_FILE("is not a regular file (it is a device, pipe or socket)", "replace it with the data file"),
    /** A file this process may not read. */
    UNREADABLE("exists but is not readable (permission denied)",
            "give this user read permission on the file (chmod), or run as a user who may read it"),
    /** The file system would not say whether anything is there, typically for lack of permission on a directory above it. */
    INACCESSIBLE("cannot be examined (permission denied on it or on a directory above it)",
            "give this user search permission on the directories above it (chmod +x), or run as a user who may");

    private final String problem;
    private final String fix;

    FileProblem(String problem, String fix) {
        this.problem = problem;
        this.fix = fix;
    }

    /**
     * What the file system says about a path.
     *
     * @param exists      something is there
     * @param knownAbsent nothing is there, for certain (both are false when the file system cannot tell)
     * @param directory   it is a directory
     * @param regularFile it is a regular file
     * @param readable    this process may read it
     * @param underAFile  the nearest existing path above it is not a directory (the file system then answers neither
     *                    that it exists nor that it is absent)
     */
    public record Facts(boolean exists, boolean knownAbsent, boolean directory, boolean regularFile, boolean readable,
                        boolean underAFile) {
        /** The facts about a path, following symbolic links. */
        public static Facts of(Path path) {
            boolean exists = Files.exists(path);
            return new Facts(exists, !exists && Files.notExists(path), Files.isDirectory(path),
                    Files.isRegularFile(path), Files.isReadable(path), !exists && nearestAboveIsNotADirectory(path));
        }

        private static boolean nearestAboveIsNotADirectory(Path path) {
            for (Path p = path.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
                if (Files.exists(p)) {
                    return !Files.isDirectory(p);
                }
            }
            return false;
        }
    }

    /** What is wrong with the path as a data file to read, or empty when it is a readable regular file. */
    public static Optional<FileProblem> of(Path path) {
        return classify(Facts.of(path));
    }

    /** The decision of {@link #of(Path)}, from the facts alone. */
    public static Optional<FileProblem> classify(Facts facts) {
        if (!facts.exists()) {
            if (facts.knownAbsent()) {
                return Optional.of(MISSING);
            }
            return Optional.of(facts.underAFile() ? UNDER_A_FILE : INACCESSIBLE);
        }
        if (facts.directory()) {
            return Optional.of(DIRECTORY);
        }
        if (!facts.regularFile()) {
            return Optional.of(NOT_A_FILE);
        }
        return facts.readable() ? Optional.empty() : Optional.of(UNREADABLE);
    }

    /** What is wrong, as a predicate of the path: "is a directory, not a file". */
    public String problem() {
        return problem;
    }

    /** What the user can do about it, in general; callers that know more say more. */
    public String fix() {
        return fix;
    }

    /**
     * The exception for this problem with the given message: {@link NoSuchFileException} for a
     * missing file, {@link AccessDeniedException} for permissions, a plain
     * {@link FileSystemException} otherwise. Its message is the path, a colon, then {@code message}.
     */
    public FileSystemException exception(Path path, String message) {
        return switch (this) {
            case MISSING -> new NoSuchFileException(path.toString(), null, message);
            case UNREADABLE, INACCESSIBLE -> new AccessDeniedException(path.toString(), null, message);
            case DIRECTORY, NOT_A_FILE, UNDER_A_FILE -> new FileSystemException(path.toString(), null, message);
        };
    }
}
