package org.dpdl4j.nn;

import java.util.List;

/** Where the reader files the problems of one layer: under the layer's index and label, in a shared list. */
record LayerProblems(int index, String where, List<ModelProblem> all) {

    void add(String problem, String fix) {
        all.add(new ModelProblem(index, where, problem, fix));
    }
}
