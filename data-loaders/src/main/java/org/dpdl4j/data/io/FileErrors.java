package org.dpdl4j.data.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * What a failed file operation means, in words. The file system's exceptions often carry only the path as their
 * message ({@code NoSuchFileException: /data/x}), which printed alone tells a user nothing; this says what is wrong
 * with the path.
 */
public final class FileErrors {
    private FileErrors() {
    }

    /**
     * The problem as a sentence that starts with the path, e.g. "/data/x does not exist", for an exception that gives
     * only the path; the exception's own message for anything else (one that gives a reason has said it).
     */
    public static String describe(IOException e) {
        if (!(e instanceof FileSystemException f) || f.getFile() == null || f.getReason() != null) {
            return e.getMessage() == null ? "an input or output error" : e.getMessage();
        }
        String file = f.getFile();
        if (f instanceof NoSuchFileException) {
            return file + " does not exist; check the path";
        }
        if (f instanceof FileAlreadyExistsException) {
            return Files.isRegularFile(Path.of(file))
                    ? file + " is a file where a directory is needed; give another path, or move the file away"
                    : file + " already exists";
        }
        if (f instanceof NotDirectoryException) {
            return file + " is not a directory";
        }
        if (f instanceof DirectoryNotEmptyException) {
            return file + " is a directory that is not empty";
        }
        if (f instanceof AccessDeniedException) {
            return file + ": permission denied; give this user access to it, or use another path";
        }
        return f.getMessage();
    }
}
