package org.dpdl4j.experiments.report;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.dpdl4j.runtime.RunFilePermissions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CSV file of metrics with a fixed header, one row per epoch or round. Every row is written whole, with one
 * write under an exclusive file lock, and handed to the operating system at once: a crash loses no finished row,
 * and processes appending to one file never interleave their rows. A last line without its line break (a write cut
 * off by a crash) is dropped with a warning when the file is continued. Numbers are written so that they read back
 * as the same double ({@link CsvFormat}); text is quoted per RFC 4180.
 *
 * <p>I/O failures surface as {@link UncheckedIOException} naming the file, so training loops need no
 * checked exceptions. Not thread-safe: append from one thread.
 */
public final class MetricsCsv implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsCsv.class);

    private final Path file;
    private final List<String> header;
    private final FileChannel channel;
    private long rows;

    private MetricsCsv(Path file, List<String> header, FileChannel channel, long rows) {
        this.file = file;
        this.header = header;
        this.channel = channel;
        this.rows = rows;
    }

    /**
     * Creates the file and writes the header. Refuses to overwrite an existing file.
     *
     * @param file   the CSV file
     * @param header distinct, non-blank column names
     */
    public static MetricsCsv create(Path file, List<String> header) {
        List<String> columns = checkHeader(header, file);
        try {
            FileChannel channel = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND), RunFilePermissions.fileAttributes(file));
            MetricsCsv csv = new MetricsCsv(file, columns, channel, 0);
            csv.writeLine(CsvFormat.line(columns));
            return csv;
        } catch (FileAlreadyExistsException e) {
            throw new UncheckedIOException("metrics file " + file + " already exists; it is never overwritten: "
                    + "use MetricsCsv.resume to continue it, or write to a new run directory", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create metrics file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens an existing metrics file to append more rows (a resumed run). Its header must be exactly
     * {@code header}.
     */
    public static MetricsCsv resume(Path file, List<String> header) {
        List<String> columns = checkHeader(header, file);
        dropTornLastLine(file);
        CsvTable existing = CsvTable.read(file);
        if (!existing.header().equals(columns)) {
            throw new IllegalArgumentException("metrics file " + file + " has header " + existing.header()
                    + " but this run writes " + columns + "; resume with the same columns or start a new file");
        }
        try {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            return new MetricsCsv(file, columns, channel, existing.size());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open metrics file " + file + " to append: " + e.getMessage(), e);
        }
    }

    /**
     * Writes a whole metrics file at once (replacing any), e.g. the history a resumed run carries on, or a table that
     * describes the run's end.
     */
    public static void replace(Path file, List<String> header, List<? extends List<?>> rows) {
        try {
            AtomicFiles.replace(file, f -> {
                try (MetricsCsv csv = create(f, header)) {
                    rows.forEach(csv::append);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write metrics file " + file + ": " + AtomicFiles.reason(e), e);
        } catch (UncheckedIOException e) {
            // a row that could not be written to the temporary file: name the file being replaced
            throw new UncheckedIOException("cannot write metrics file " + file + ": " + AtomicFiles.reason(e.getCause()), e.getCause());
        }
    }

    /**
     * Truncates a last line that lacks its line break: every row is written whole with its line break, so such a
     * line is a write a crash cut off. Returns whether one was dropped. The caller holds the file's only writer.
     */
    public static boolean dropTornLastLine(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            long size = channel.size();
            if (size == 0) {
                return false;
            }
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, size - 1);
            if (one.get(0) == '\n') {
                return false;
            }
            long keep = size - 1;
            ByteBuffer b = ByteBuffer.allocate(1);
            while (keep > 0) {
                b.clear();
                channel.read(b, keep - 1);
                if (b.get(0) == '\n') {
                    break;
                }
                keep--;
            }
            channel.truncate(keep);
            LOG.warn("{}: dropped an incomplete last line ({} bytes) left by an interrupted write; its run is redone", file,
                    size - keep);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot check the end of " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<String> checkHeader(List<String> header, Path file) {
        Objects.requireNonNull(file, "file must not be null");
        Objects.requireNonNull(header, "header must not be null");
        if (header.isEmpty()) {
            throw new IllegalArgumentException("the header of " + file + " is empty; give at least one column name");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < header.size(); i++) {
            String name = header.get(i);
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("column " + i + " of the header of " + file + " is blank; "
                        + "name every column");
            }
            if (!seen.add(name)) {
                throw new IllegalArgumentException("column name '" + name + "' appears twice in the header of " + file
                        + ": " + header);
            }
        }
        return List.copyOf(header);
    }

    /** The column names. */
    public List<String> header() {
        return header;
    }

    /** The file written. */
    public Path file() {
        return file;
    }

    /** Number of data rows in the file (including rows of a resumed file). */
    public long rows() {
        return rows;
    }

    /**
     * Appends one row, one value per column in header order, and flushes it.
     *
     * @throws IllegalArgumentException if the number of values differs from the number of columns
     */
    public void append(Object... values) {
        Objects.requireNonNull(values, "values must not be null");
        append(Arrays.asList(values));
    }

    /** Appends one row given as a list of values in header order, and flushes it. */
    public void append(List<?> values) {
        Objects.requireNonNull(values, "values must not be null");
        if (values.size() != header.size()) {
            throw new IllegalArgumentException("row " + (rows + 1) + " of " + file + " has " + values.size()
                    + " values but the header has " + header.size() + " columns " + header);
        }
        writeLine(CsvFormat.line(values));
        rows++;
    }

    /**
     * Appends one row given by column name, and flushes it. Every column must be present (use a null value
     * for a missing one) and no other key.
     */
    public void append(Map<String, ?> row) {
        Objects.requireNonNull(row, "row must not be null");
        for (String key : row.keySet()) {
            if (!header.contains(key)) {
                throw new IllegalArgumentException("row " + (rows + 1) + " of " + file + " has unknown column '" + key
                        + "'; the header is " + header);
            }
        }
        List<Object> values = new ArrayList<>(header.size());
        for (String column : header) {
            if (!row.containsKey(column)) {
                throw new IllegalArgumentException("row " + (rows + 1) + " of " + file + " lacks column '" + column
                        + "'; give every column of " + header + " (null for a missing value)");
            }
            values.add(row.get(column));
        }
        append(values);
    }

    private void writeLine(String line) {
        ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        try (FileLock ignored = channel.lock()) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to metrics file " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close metrics file " + file + ": " + e.getMessage(), e);
        }
    }
}
