package org.dpdl4j.runtime;

import java.nio.file.Path;

/** A checkpoint that cannot be read or does not fit the run resuming it; the message names the file and the problem. */
public final class CheckpointException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;

    public CheckpointException(Path file, String problem) {
        super("checkpoint " + file + ": " + problem);
        this.file = file;
    }

    public CheckpointException(Path file, String problem, Throwable cause) {
        super("checkpoint " + file + ": " + problem, cause);
        this.file = file;
    }

    /** The checkpoint file. */
    public Path file() {
        return file;
    }
}
