package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.experiments.report.CsvTable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
