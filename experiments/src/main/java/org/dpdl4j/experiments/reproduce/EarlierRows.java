package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.experiments.report.CsvTable;

import java.nio.file.Files;
import java.nio.file.Path;
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

    private EarlierRows(CsvTable table) {
        this.table = table;
    }

    /** The whole rows of {@code file}, or none when it does not exist (a torn last line is ignored). */
    static EarlierRows of(Path file) {
        return new EarlierRows(Files.exists(file) ? CsvTable.readWholeRows(file) : null);
    }

    /** No earlier rows. */
    static EarlierRows none() {
        return new EarlierRows(null);
    }

    /**
     * The first row whose columns equal {@code key} (numbers compared as numbers, so {@code 3} matches {@code 3.0}).
     */
    Optional<List<String>> find(Map<String, Object> key) {
        if (table == null) {
            return Optional.empty();
        }
        Predicate<List<String>> matches = row -> key.entrySet().stream().allMatch(e -> {
            int column = table.header().indexOf(e.getKey());
            return column >= 0 && same(row.get(column), e.getValue());
        });
        return table.rows().stream().filter(matches).findFirst();
    }

    /** The value of {@code column} in a row of this table. */
    String value(List<String> row, String column) {
        return row.get(table.columnIndex(column));
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
