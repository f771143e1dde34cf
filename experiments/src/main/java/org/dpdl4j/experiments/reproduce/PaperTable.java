package org.dpdl4j.experiments.reproduce;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the paper's value tables: rows of (epsilon, value per column label). */
final class PaperTable {
    private final List<String> labels;
    private final Map<Double, Map<String, String>> rows = new LinkedHashMap<>();

    PaperTable(String... labels) {
        this.labels = List.of(labels);
    }

    PaperTable row(double epsilon, String... values) {
        if (values.length != labels.size()) {
            throw new IllegalStateException("row for epsilon " + epsilon + " has " + values.length + " values for " + labels.size() + " labels");
        }
        Map<String, String> r = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            r.put(labels.get(i), values[i]);
        }
        rows.put(epsilon, r);
        return this;
    }

    Map<Double, Map<String, String>> build() {
        return rows;
    }
}
