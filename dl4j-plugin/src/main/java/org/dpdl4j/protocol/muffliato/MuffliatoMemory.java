package org.dpdl4j.protocol.muffliato;

import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartyMemory;

/**
 * What a Muffliato-GD run holds ({@link MuffliatoGd}): the nodes' data stacked once, the n models and the arrays of a
 * round (gradients, the gossip's three iterates), the dense mixing matrix, the pairwise accountant's n x n exposures
 * and one observer's Krylov basis, and the stacked gradient step over every node's whole data.
 *
 * @param model the network's sizes
 * @param data  the data and its split
 * @param nodes n
 */
record MuffliatoMemory(ModelFootprint model, DataShape data, int nodes) {
    /** n x p arrays alive in a round: models, gradients, and the gossip's previous, current and next iterates. */
    private static final int MODEL_COPIES = 5;

    MemoryEstimate estimate() {
        int w = model.valueBytes();
        MemoryEstimate.Builder b = MemoryEstimate.of("muffliato with " + nodes + " nodes of " + model.describe());
        PartyMemory.splitData(b, data, nodes, w, true);
        b.arrays("the node models and a round's iterates", MODEL_COPIES * (double) nodes, model.parameters(), w);
        b.arrays("the mixing matrix", nodes, nodes, Math.max(w, 8));
        b.heap("the pairwise accountant (exposures, one observer's basis)", 3.0 * nodes * nodes * 8);
        PartyMemory.stackedSteps(b, model, nodes, data.widestParty(), data);
        return b.fix("fewer nodes (--nodes) or a smaller model").build();
    }
}
