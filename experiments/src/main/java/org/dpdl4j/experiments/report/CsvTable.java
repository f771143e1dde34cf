package org.dpdl4j.experiments.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A CSV file read whole (RFC 4180: quoted fields may hold commas, quotes and line breaks), e.g. a
 * {@link MetricsCsv} read back to plot or tabulate. An unquoted empty field reads as {@code null}, a quoted
 * one as the empty string. A last line without its line break is read as a row: files that runs append to are
 * repaired by {@link MetricsCsv#dropTornLastLine} before they are read back.
 */
public final class CsvTable {
    private final Path source;
    private final List<String> header;
    private final List<List<String>> rows;

    private CsvTable(Path source, List<String> header, List<List<String>> rows) {
        this.source = source;
        this.header = header;
        this.rows = rows;
    }

    /**
     * Reads a CSV file with a header line.
     *
     * @throws IllegalArgumentException for malformed CSV or rows whose length differs from the header's,
     *                                  naming the line
     */
    public static CsvTable read(Path file) {
        return of(text(file), file);
    }

    /**
     * Reads the rows a writer finished: a last line without its line break (a row a crash cut off; every writer here
     * ends each row with one) is left out with a warning. The file itself is not changed.
     */
    public static CsvTable readWholeRows(Path file) {
        String text = text(file);
        int cut = text.lastIndexOf('\n') + 1;
        if (cut > 0 && cut < text.length()) {
            org.slf4j.LoggerFactory.getLogger(CsvTable.class).warn("{}: left out an incomplete last line ({} characters)"
                    + " that an interrupted write left; its run is redone", file, text.length() - cut);
            text = text.substring(0, cut);
        }
        return of(text, file);
    }

    private static String text(Path file) {
        Objects.requireNonNull(file, "file must not be null");
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CSV file " + file + ": " + e.getMessage(), e);
        }
    }

    private static CsvTable of(String text, Path file) {
        List<Record> records = parse(text, file);
        if (records.isEmpty()) {
            throw new IllegalArgumentException("CSV file " + file + " is empty; it needs at least a header line");
        }
        List<String> header = records.get(0).fields();
        List<List<String>> rows = new ArrayList<>(records.size() - 1);
        for (Record record : records.subList(1, records.size())) {
            if (record.fields().size() != header.size()) {
                throw new IllegalArgumentException(file + " line " + record.line() + ": " + record.fields().size()
                        + " fields but the header has " + header.size() + " " + header);
            }
            rows.add(Collections.unmodifiableList(record.fields()));
        }
        return new CsvTable(file, Collections.unmodifiableList(header), Collections.unmodifiableList(rows));
    }

    /** One parsed line (a record may span several physical lines). */
    private record Record(int line, List<String> fields) {
    }

    private static List<Record> parse(String text, Path file) {
        List<Record> records = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int line = 1;
        int recordLine = 1;
        int i = 0;
        int n = text.length();
        boolean fieldQuoted = false;
        boolean atFieldStart = true;
        while (i < n) {
            char c = text.charAt(i);
            if (atFieldStart && c == '"') {
                fieldQuoted = true;
                atFieldStart = false;
                int start = line;
                i++;
                while (true) {
                    if (i >= n) {
                        throw new IllegalArgumentException(file + " line " + start
                                + ": quoted field is never closed; close it with '\"'");
                    }
                    char q = text.charAt(i);
                    if (q == '"') {
                        if (i + 1 < n && text.charAt(i + 1) == '"') {
                            field.append('"');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    if (q == '\n') {
                        line++;
                    }
                    field.append(q);
                    i++;
                }
                if (i < n && text.charAt(i) != ',' && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
                    throw new IllegalArgumentException(file + " line " + line + ": unexpected '" + text.charAt(i)
                            + "' after a closing quote; quote the whole field and double inner quotes");
                }
                continue;
            }
            atFieldStart = false;
            if (c == ',') {
                fields.add(value(field, fieldQuoted));
                field.setLength(0);
                fieldQuoted = false;
                atFieldStart = true;
                i++;
            } else if (c == '\n' || c == '\r') {
                fields.add(value(field, fieldQuoted));
                records.add(new Record(recordLine, fields));
                fields = new ArrayList<>();
                field.setLength(0);
                fieldQuoted = false;
                atFieldStart = true;
                i += (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') ? 2 : 1;
                line++;
                recordLine = line;
            } else if (c == '"') {
                throw new IllegalArgumentException(file + " line " + line
                        + ": '\"' inside an unquoted field; quote the field and double inner quotes");
            } else {
                field.append(c);
                i++;
            }
        }
        if (!atFieldStart || !fields.isEmpty()) {
            fields.add(value(field, fieldQuoted));
            records.add(new Record(recordLine, fields));
        }
        return records;
    }

    private static String value(StringBuilder field, boolean quoted) {
        return field.length() == 0 && !quoted ? null : field.toString();
    }

    /** The column names. */
    public List<String> header() {
        return header;
    }

    /** The data rows, each as long as the header. */
    public List<List<String>> rows() {
        return rows;
    }

    /** Number of data rows. */
    public int size() {
        return rows.size();
    }

    /** Index of a column. */
    public int columnIndex(String column) {
        int index = header.indexOf(column);
        if (index < 0) {
            throw new IllegalArgumentException(source + " has no column '" + column + "'; its columns are " + header);
        }
        return index;
    }

    /** The values of one column, top to bottom. */
    public List<String> column(String column) {
        int index = columnIndex(column);
        List<String> values = new ArrayList<>(rows.size());
        for (List<String> row : rows) {
            values.add(row.get(index));
        }
        return values;
    }

    /**
     * The values of one numeric column; an empty field (a missing value) reads as NaN.
     *
     * @throws IllegalArgumentException naming the line and the value when a field is not a number
     */
    public double[] doubles(String column) {
        int index = columnIndex(column);
        double[] values = new double[rows.size()];
        for (int r = 0; r < rows.size(); r++) {
            String text = rows.get(r).get(index);
            if (text == null || text.isEmpty()) {
                values[r] = Double.NaN;
                continue;
            }
            try {
                values[r] = Double.parseDouble(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(source + " data row " + (r + 1) + ", column '" + column + "': '"
                        + text + "' is not a number", e);
            }
        }
        return values;
    }
}
