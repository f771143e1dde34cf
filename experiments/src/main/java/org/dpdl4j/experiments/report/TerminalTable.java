package org.dpdl4j.experiments.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * An aligned text table for the terminal, and the same table as GitHub markdown for committed result
 * tables. Columns whose cells are all numbers (or empty) are right-aligned, others left-aligned.
 *
 * <p>Numbers: integers as they are; floating-point values with four decimals, or in scientific notation
 * with three when their magnitude is below 1e-3 or at least 1e7, unless a column has its own format
 * ({@link #format}). Missing cells (null) print as "-". Line breaks inside a cell print as spaces.
 */
public final class TerminalTable {
    private static final String MISSING = "-";
    private static final String GAP = "  ";

    private final String title;
    private final List<String> columns;
    private final List<Object[]> rows = new ArrayList<>();
    private final Map<Integer, String> formats = new HashMap<>();

    /**
     * @param title   title printed above the table (empty for none)
     * @param columns column names
     */
    public TerminalTable(String title, List<String> columns) {
        this.title = Objects.requireNonNull(title, "title must not be null (use \"\" for none)");
        Objects.requireNonNull(columns, "columns must not be null");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("table '" + title + "' needs at least one column");
        }
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i) == null) {
                throw new IllegalArgumentException("column " + i + " of table '" + title + "' has no name");
            }
        }
        this.columns = List.copyOf(columns);
    }

    public TerminalTable(String title, String... columns) {
        this(title, Arrays.asList(columns));
    }

    /**
     * Sets the {@link String#format} pattern of the numbers of a column, e.g. {@code "%.2f"}, {@code "%.1e"}
     * or {@code "%,d"}. Floating-point patterns (ending in e, f, g or a) also format integers.
     */
    public TerminalTable format(String column, String pattern) {
        int index = columns.indexOf(column);
        if (index < 0) {
            throw new IllegalArgumentException("table '" + title + "' has no column '" + column + "'; its columns are "
                    + columns);
        }
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException("the format of column '" + column + "' must be a pattern such as "
                    + "\"%.2f\"");
        }
        formats.put(index, pattern);
        return this;
    }

    /** Adds a row, one cell per column. */
    public TerminalTable addRow(Object... cells) {
        Objects.requireNonNull(cells, "cells must not be null");
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException("row " + (rows.size() + 1) + " of table '" + title + "' has "
                    + cells.length + " cells but the table has " + columns.size() + " columns " + columns);
        }
        rows.add(cells.clone());
        return this;
    }

    /** Adds a row given as a list. */
    public TerminalTable addRow(List<?> cells) {
        return addRow(cells.toArray());
    }

    /** Number of rows added. */
    public int size() {
        return rows.size();
    }

    /** The table as aligned text: title, header, a rule, rows; lines end with '\n'. */
    public String render() {
        String[][] cells = cellTexts();
        int[] widths = widths(cells);
        boolean[] right = rightAligned();
        StringBuilder out = new StringBuilder();
        if (!title.isEmpty()) {
            out.append(title).append('\n');
        }
        appendLine(out, columns.toArray(String[]::new), widths, right);
        String[] rules = new String[columns.size()];
        for (int c = 0; c < rules.length; c++) {
            rules[c] = "-".repeat(widths[c]);
        }
        appendLine(out, rules, widths, right);
        for (String[] row : cells) {
            appendLine(out, row, widths, right);
        }
        return out.toString();
    }

    private static void appendLine(StringBuilder out, String[] cells, int[] widths, boolean[] right) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) {
                line.append(GAP);
            }
            line.append(pad(cells[c], widths[c], right[c]));
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    /**
     * The table as GitHub markdown: the title in bold (when there is one), then the table with alignment
     * markers; the raw text is aligned too, so diffs of committed tables stay readable.
     */
    public String toMarkdown() {
        String[][] cells = cellTexts();
        for (String[] row : cells) {
            for (int c = 0; c < row.length; c++) {
                row[c] = row[c].replace("|", "\\|");
            }
        }
        String[] header = columns.stream().map(name -> name.replace("|", "\\|")).toArray(String[]::new);
        int[] widths = new int[columns.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = Math.max(3, width(header[c]));
            for (String[] row : cells) {
                widths[c] = Math.max(widths[c], width(row[c]));
            }
        }
        boolean[] right = rightAligned();
        StringBuilder out = new StringBuilder();
        if (!title.isEmpty()) {
            out.append("**").append(title).append("**\n\n");
        }
        appendMarkdownRow(out, header, widths, right);
        String[] rules = new String[widths.length];
        for (int c = 0; c < rules.length; c++) {
            rules[c] = right[c] ? "-".repeat(widths[c] - 1) + ":" : ":" + "-".repeat(widths[c] - 1);
        }
        appendMarkdownRow(out, rules, widths, right);
        for (String[] row : cells) {
            appendMarkdownRow(out, row, widths, right);
        }
        return out.toString();
    }

    private static void appendMarkdownRow(StringBuilder out, String[] cells, int[] widths, boolean[] right) {
        out.append('|');
        for (int c = 0; c < cells.length; c++) {
            out.append(' ').append(pad(cells[c], widths[c], right[c])).append(" |");
        }
        out.append('\n');
    }

    @Override
    public String toString() {
        return render();
    }

    private String[][] cellTexts() {
        String[][] texts = new String[rows.size()][columns.size()];
        for (int r = 0; r < rows.size(); r++) {
            for (int c = 0; c < columns.size(); c++) {
                try {
                    texts[r][c] = text(rows.get(r)[c], formats.get(c));
                } catch (IllegalFormatException e) {
                    throw new IllegalArgumentException("table '" + title + "', row " + (r + 1) + ", column '"
                            + columns.get(c) + "': pattern '" + formats.get(c) + "' cannot format "
                            + rows.get(r)[c] + " (" + e.getMessage() + "); fix the pattern given to format()", e);
                }
            }
        }
        return texts;
    }

    private int[] widths(String[][] cells) {
        int[] widths = new int[columns.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = width(columns.get(c));
            for (String[] row : cells) {
                widths[c] = Math.max(widths[c], width(row[c]));
            }
        }
        return widths;
    }

    /** A column is numeric when it has at least one number and nothing but numbers and empty cells. */
    private boolean[] rightAligned() {
        boolean[] right = new boolean[columns.size()];
        for (int c = 0; c < right.length; c++) {
            boolean anyNumber = false;
            boolean allNumbers = true;
            for (Object[] row : rows) {
                if (row[c] instanceof Number) {
                    anyNumber = true;
                } else if (row[c] != null) {
                    allNumbers = false;
                }
            }
            right[c] = anyNumber && allNumbers;
        }
        return right;
    }

    static String text(Object value, String pattern) {
        if (value == null) {
            return MISSING;
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return pattern != null && Double.isFinite(d) ? String.format(Locale.ROOT, pattern, d) : number(d);
        }
        if (value instanceof Number n && pattern != null) {
            char conversion = Character.toLowerCase(pattern.charAt(pattern.length() - 1));
            boolean floating = conversion == 'e' || conversion == 'f' || conversion == 'g' || conversion == 'a';
            return String.format(Locale.ROOT, pattern, floating ? n.doubleValue() : n);
        }
        return value.toString().replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
    }

    /** Default text of a floating-point cell. */
    static String number(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        double magnitude = Math.abs(d);
        if (d == 0 || (magnitude >= 1e-3 && magnitude < 1e7)) {
            return String.format(Locale.ROOT, "%.4f", d);
        }
        return String.format(Locale.ROOT, "%.3e", d);
    }

    private static String pad(String text, int width, boolean right) {
        String padding = " ".repeat(width - width(text));
        return right ? padding + text : text + padding;
    }

    /** Width in terminal columns, counting code points (not UTF-16 units). */
    private static int width(String text) {
        return text.codePointCount(0, text.length());
    }
}
