package org.dpdl4j.experiments.report;

import java.math.BigDecimal;
import java.util.List;

/**
 * How values become CSV fields (RFC 4180 quoting, '\n' line ends). Doubles use {@link Double#toString},
 * the shortest decimal that parses back to the same double; floats likewise via {@link Float#toString};
 * non-finite values are {@code NaN}, {@code Infinity}, {@code -Infinity}; null is an empty field, the
 * empty string a quoted empty field.
 */
final class CsvFormat {
    private CsvFormat() {
    }

    static String field(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Double d) {
            return Double.toString(d);
        }
        if (value instanceof Float f) {
            return Float.toString(f);
        }
        if (value instanceof BigDecimal big) {
            return big.toString();
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        return quoteIfNeeded(value.toString());
    }

    static String quoteIfNeeded(String text) {
        boolean needsQuotes = text.isEmpty()
                || !text.strip().equals(text)
                || text.chars().anyMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r');
        return needsQuotes ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }

    static String line(List<?> values) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            line.append(field(values.get(i)));
        }
        return line.append('\n').toString();
    }
}
