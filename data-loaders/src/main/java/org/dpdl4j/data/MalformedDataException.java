package org.dpdl4j.data;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The content of a data file does not have the format its reader expects.
 *
 * <p>The message always has three parts: where (the file and a line number, a byte offset or a
 * record), what is wrong, and how to fix it:
 * {@code a9a.t, line 17: token 3 "4:x" has a non-numeric value "x". Fix: ...}.
 * It is an {@link IOException} because callers of the readers handle I/O failures anyway, and a
 * damaged download is the most common cause.
 */
public final class MalformedDataException extends IOException {
    private final String source;
    private final String location;
    private final String problem;

    /**
     * @param source   the file or stream (its path as the user gave it)
     * @param location where inside it ("line 17", "byte offset 16"), or {@code null} for the file as a whole
     * @param problem  what is wrong, in one sentence without a trailing period
     * @param fix      what the user can do about it, in one sentence without a trailing period
     * @param cause    the low-level exception, or {@code null}
     */
    public MalformedDataException(String source, String location, String problem, String fix, Throwable cause) {
        super(format(source, location, problem, fix), cause);
        this.source = Objects.requireNonNull(source, "source");
        this.location = location;
        this.problem = Objects.requireNonNull(problem, "problem");
    }

    /** A problem on a 1-based line of a text file. */
    public static MalformedDataException atLine(Path file, long line, String problem, String fix) {
        return new MalformedDataException(file.toString(), "line " + line, problem, fix, null);
    }

    /** A problem at a 0-based byte offset of a file (of its decompressed content when it is gzip). */
    public static MalformedDataException atByte(Path file, long offset, String problem, String fix) {
        return new MalformedDataException(file.toString(), "byte offset " + offset, problem, fix, null);
    }

    /** A problem with the file as a whole. */
    public static MalformedDataException inFile(Path file, String problem, String fix) {
        return new MalformedDataException(file.toString(), null, problem, fix, null);
    }

    /** The file or stream the problem is in. */
    public String source() {
        return source;
    }

    /** Where inside the source, or {@code null} when the problem concerns the whole file. */
    public String location() {
        return location;
    }

    /** What is wrong, without location and fix. */
    public String problem() {
        return problem;
    }

    private static String format(String source, String location, String problem, String fix) {
        StringBuilder s = new StringBuilder(source);
        if (location != null) {
            s.append(", ").append(location);
        }
        s.append(": ").append(problem).append('.');
        if (fix != null && !fix.isEmpty()) {
            s.append(" Fix: ").append(fix).append('.');
        }
        return s.toString();
    }
}
