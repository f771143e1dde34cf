package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.experiments.report.CsvTable;
import org.dpdl4j.experiments.report.MetricsCsv;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The rows an earlier, interrupted or partial run of a reproduction left in its CSV files, so that a run with
 * {@code --resume} takes every finished training run from them instead of training it again. A row is reused only
 * when every column that identifies it matches; what is missing is trained.
 */
final class EarlierRows {
    private final CsvTable table;
    private final Map<String, String> defaults;

    private EarlierRows(CsvTable table, Map<String, String> defaults) {
        this.table = table;
        this.defaults = defaults;
    }

    /**
     * These rows with {@code column} read as {@code value} where the file has no such column: a file written before
     * the column existed, whose rows all had what the column now says explicitly.
     */
    EarlierRows withDefault(String column, String value) {
        Map<String, String> d = new HashMap<>(defaults);
        d.put(column, value);
        return new EarlierRows(table, Map.copyOf(d));
    }

    /** The whole rows of {@code file}, or none when it does not exist (a torn last line is ignored). */
    static EarlierRows of(Path file) {
        return new EarlierRows(Files.exists(file) ? CsvTable.readWholeRows(file) : null, Map.of());
    }

    /**
     * The rows a resumed run reuses, kept out of the way while it writes {@code file} afresh: {@code file} is moved to
     * {@link #kept}, which {@link #discardKept} deletes once the new file is whole, so that a run stopped midway loses
     * none of them. When an earlier resume stopped midway both files exist: the rows it wrote join the kept ones (laid
     * out in its columns, {@code defaults} filling those the kept file lacks), so its newly trained rows are kept too.
     *
     * @param defaults the value of a column the kept file lacks (as {@link #withDefault})
     */
    static EarlierRows keep(Path file, Map<String, String> defaults) throws IOException {
        Path kept = kept(file);
        if (Files.exists(kept) && Files.exists(file) && Files.readString(file).indexOf('\n') < 0) {
            Files.delete(file);   // stopped before its header was whole: it holds no row
        }
        if (Files.exists(kept) && Files.exists(file)) {
            CsvTable old = CsvTable.readWholeRows(kept);
            CsvTable partial = CsvTable.readWholeRows(file);
            List<String> header = partial.header();
            Set<List<String>> rows = new LinkedHashSet<>();
            for (List<String> row : old.rows()) {
                rows.add(header.stream().map(c -> {
                    int index = old.header().indexOf(c);
                    return index >= 0 ? row.get(index) : defaults.getOrDefault(c, "");
                }).toList());
            }
            rows.addAll(partial.rows());
            MetricsCsv.replace(kept, header, List.copyOf(rows));
            Files.delete(file);
        } else if (Files.exists(file)) {
            Files.move(file, kept, StandardCopyOption.ATOMIC_MOVE);
        }
        EarlierRows rows = of(kept);
        for (Map.Entry<String, String> d : defaults.entrySet()) {
            rows = rows.withDefault(d.getKey(), d.getValue());
        }
        return rows;
    }

    /** Deletes the rows {@link #keep} kept, once the file they were written again into is whole. */
    static void discardKept(Path file) throws IOException {
        Files.deleteIfExists(kept(file));
    }

    /** Where {@link #keep} keeps {@code file}'s rows: {@code file} with {@code .earlier} appended. */
    static Path kept(Path file) {
        return file.resolveSibling(file.getFileName() + ".earlier");
    }

    /**
     * Sets the rows of {@code file} aside for a fresh run that replaces them ({@link #setAside(Path)}): they stay on
     * disk, unread, until the fresh run's files are whole, so that a crash before then loses no finished row. When an
     * earlier fresh run that never finished set rows aside already, those are the last whole results: they stay, and
     * that run's partial {@code file} goes. Says on {@code out} what it did.
     */
    static void setAside(Path file, PrintWriter out) throws IOException {
        Path aside = setAsidePath(file);
        if (Files.isRegularFile(aside)) {
            if (Files.deleteIfExists(file)) {
                out.println("Discarding the partial " + file + " of a fresh run that never finished (the last whole rows"
                        + " stay in " + aside.getFileName() + " until this run's files are whole)");
            }
        } else if (Files.isRegularFile(file)) {
            out.println("Replacing the earlier " + file + " (kept as " + aside.getFileName() + " until this run's files are"
                    + " whole)");
            Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    /** Deletes the rows {@link #setAside} set aside, once the fresh run's files are whole. */
    static void discardSetAside(Path file) throws IOException {
        Files.deleteIfExists(setAsidePath(file));
    }

    /** Where {@link #setAside} keeps {@code file}'s rows: {@code file} with {@code .replaced} appended. */
    static Path setAsidePath(Path file) {
        return file.resolveSibling(file.getFileName() + ".replaced");
    }

    /** No earlier rows. */
    static EarlierRows none() {
        return new EarlierRows(null, Map.of());
    }

    /**
     * The first row whose columns equal {@code key} (numbers compared as numbers, so {@code 3} matches {@code 3.0}).
     */
    Optional<List<String>> find(Map<String, Object> key) {
        if (table == null) {
            return Optional.empty();
        }
        Predicate<List<String>> matches = row -> key.entrySet().stream().allMatch(e -> {
            String cell = cell(row, e.getKey());
            return cell != null && same(cell, e.getValue());
        });
        return table.rows().stream().filter(matches).findFirst();
    }

    /** The value of {@code column} in a row of this table (its default where the file lacks the column). */
    String value(List<String> row, String column) {
        String cell = cell(row, column);
        if (cell == null) {
            throw new IllegalArgumentException("the earlier rows have no column '" + column + "'");
        }
        return cell;
    }

    /** A row of this table laid out in {@code columns}, the defaults filling the columns the file lacks. */
    List<String> inColumns(List<String> columns, List<String> row) {
        return columns.stream().map(c -> value(row, c)).toList();
    }

    private String cell(List<String> row, String column) {
        int index = table.header().indexOf(column);
        return index >= 0 ? row.get(index) : defaults.get(column);
    }

    private static boolean same(String cell, Object value) {
        if (value instanceof Number n) {
            try {
                return Double.compare(Double.parseDouble(cell), n.doubleValue()) == 0;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return cell.equals(String.valueOf(value));
    }
}
