package org.dpdl4j.experiments.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.dpdl4j.runtime.RunFilePermissions;

/**
 * A file of JSON lines that a long job appends to as each piece of work finishes, every line forced to disk before the
 * job goes on, so that a crash or a kill loses at most the piece in progress. Reading it back keeps the whole lines: a
 * last line the crash cut off is removed from the file, so that what is appended next starts a line of its own. The
 * file is readable by its owner alone unless run files are shared ({@link RunFilePermissions}).
 */
public final class JsonLinesJournal implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final FileChannel channel;

    private JsonLinesJournal(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /** Opens {@code file} to append lines to, creating it when it does not exist. */
    public static JsonLinesJournal append(Path file) {
        try {
            return new JsonLinesJournal(file, FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND), RunFilePermissions.fileAttributes(file)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the journal " + file + ": " + e.getMessage()
                    + "; check that its directory is writable", e);
        }
    }

    /**
     * The whole lines of {@code file}, in order, as text; a last line a crash cut off is removed from the file (none at
     * all when the crash came before the first line was whole).
     */
    public static List<String> wholeLines(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the journal " + file + ": " + e.getMessage(), e);
        }
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        // everything up to the last newline was written whole; what follows it is a line the crash cut off
        String cut = lines.remove(lines.size() - 1);
        if (!cut.isEmpty()) {
            long whole = lines.stream().mapToLong(l -> l.getBytes(StandardCharsets.UTF_8).length + 1L).sum();
            try (FileChannel truncate = FileChannel.open(file, StandardOpenOption.WRITE)) {
                truncate.truncate(whole);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot drop the incomplete last line of " + file + ": " + e.getMessage(), e);
            }
        }
        return lines;
    }

    /** Appends {@code line} and forces it to disk. */
    public void write(JsonNode line) {
        try {
            ByteBuffer bytes = ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the journal " + file + ": " + e.getMessage()
                    + "; check the disk space and permissions of its directory", e);
        }
    }

    /** Deletes the journal, once the files the job writes at its end hold everything it had. */
    public void delete() {
        close();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("the results are written but the journal " + file + " could not be deleted: "
                    + e.getMessage() + "; delete it by hand", e);
        }
    }

    @Override
    public void close() {
        if (channel.isOpen()) {
            try {
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close the journal " + file + ": " + e.getMessage(), e);
            }
        }
    }
}
