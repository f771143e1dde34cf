package org.dpdl4j.experiments.reproduce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One finished run of {@code reproduce recal}: its row of {@code results.csv}, its curve (iteration, messages, relative
 * error) and, for a relay run, every agent's activations.
 *
 * @param target      the target epsilon of a private run, NaN for a non-private one
 * @param epsilon     the epsilon its ledger spent, infinite for a non-private run
 * @param rho         the most exposed agent's zCDP rho, NaN for a non-private run
 * @param activations how often each agent was activated (relay runs), or null
 */
record RecalRow(String dataset, String graph, String algorithm, double target, double epsilon, double rho, long iterations,
                long lci, long messages, double seconds, double error, List<double[]> curve, long[] activations) {

    /** What tells this run apart from the others of one reproduction. */
    String key() {
        return key(dataset, graph, algorithm, target);
    }

    static String key(String dataset, String graph, String algorithm, double target) {
        return dataset + "|" + graph + "|" + algorithm + "|" + target;
    }

    /** This run as a part of {@link ReproductionJournal}, every number exactly. */
    ObjectNode toJson() {
        ObjectNode part = ReproductionJournal.part(key()).put("dataset", dataset).put("graph", graph).put("algorithm", algorithm)
                .put("target", ReproductionJournal.number(target)).put("epsilon", ReproductionJournal.number(epsilon))
                .put("rho", ReproductionJournal.number(rho)).put("iterations", iterations).put("lci", lci)
                .put("messages", messages).put("seconds", ReproductionJournal.number(seconds))
                .put("error", ReproductionJournal.number(error));
        ArrayNode points = part.putArray("curve");
        for (double[] point : curve) {
            ArrayNode p = points.addArray();
            for (double v : point) {
                p.add(ReproductionJournal.number(v));
            }
        }
        if (activations != null) {
            ArrayNode a = part.putArray("activations");
            for (long k : activations) {
                a.add(k);
            }
        }
        return part;
    }

    /** The run {@link #toJson} wrote. */
    static RecalRow fromJson(JsonNode part) {
        JsonNode points = part.get("curve");
        if (points == null || !points.isArray()) {
            throw new IllegalArgumentException("no curve");
        }
        List<double[]> curve = new ArrayList<>();
        for (JsonNode point : points) {
            double[] p = new double[point.size()];
            for (int i = 0; i < p.length; i++) {
                p[i] = Double.parseDouble(point.get(i).asText());
            }
            curve.add(p);
        }
        long[] activations = null;
        if (part.hasNonNull("activations")) {
            JsonNode a = part.get("activations");
            activations = new long[a.size()];
            for (int i = 0; i < activations.length; i++) {
                activations[i] = a.get(i).asLong();
            }
        }
        return new RecalRow(ReproductionJournal.text(part, "dataset"), ReproductionJournal.text(part, "graph"),
                ReproductionJournal.text(part, "algorithm"), ReproductionJournal.number(part, "target"),
                ReproductionJournal.number(part, "epsilon"), ReproductionJournal.number(part, "rho"),
                ReproductionJournal.integer(part, "iterations"), ReproductionJournal.integer(part, "lci"),
                ReproductionJournal.integer(part, "messages"), ReproductionJournal.number(part, "seconds"),
                ReproductionJournal.number(part, "error"), curve, activations);
    }
}
