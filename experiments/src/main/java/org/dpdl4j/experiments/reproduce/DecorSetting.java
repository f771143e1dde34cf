package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;

/**
 * One curve of Decor's Figure 1: an algorithm on a topology (CDP always averages on the complete graph).
 *
 * @param algorithm CDP, DECOR or LDP
 * @param topology  complete, torus or ring
 */
record DecorSetting(DecentralizedAlgorithm algorithm, String topology) {

    /** The label used in tables and legends, e.g. "Decor ring". */
    String label() {
        return switch (algorithm) {
            case CDP -> "CDP";
            case DECOR -> "Decor " + topology;
            case LDP -> "LDP " + topology;
            case DSGD -> "D-SGD " + topology;
        };
    }

    /** The topology name of the reference code's hyperparameter tables ("centralized", "grid", "ring"). */
    String referenceTopology() {
        return switch (topology) {
            case "complete" -> "centralized";
            case "torus" -> "grid";
            default -> topology;
        };
    }
}
