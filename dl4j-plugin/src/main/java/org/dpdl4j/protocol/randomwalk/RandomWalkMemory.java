package org.dpdl4j.protocol.randomwalk;

import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartyMemory;

/**
 * What a random walk holds ({@link RandomWalkSgd}): the parties' data, one model and its gradient, the token's whole
 * path (drawn up front, one party per hop) and the hop's workspace: the holder's batch, its copy in the model's type,
 * and its activations and errors.
 *
 * @param model   the network's sizes
 * @param data    the data and its split
 * @param parties the parties
 * @param hops    the hops of the walk
 * @param batch   examples per hop (0: the holder's whole data)
 */
record RandomWalkMemory(ModelFootprint model, DataShape data, int parties, long hops, long batch) {
    /** Batch-sized arrays per layer output of the single-model engine (as in the stacked one). */
    private static final int ACTIVATION_COPIES = 5;

    MemoryEstimate estimate() {
        int w = model.valueBytes();
        double rows = batch == 0 ? data.widestParty() : Math.min(batch, data.widestParty());
        MemoryEstimate.Builder b = MemoryEstimate.of("random-walk with " + parties + " parties of " + model.describe());
        PartyMemory.splitData(b, data, parties, w, false);
        b.arrays("the model and its gradient", 2, model.parameters(), w);
        b.heap("the token's path", 4.0 * hops);
        b.arrays("a hop's batch", 2 * rows, data.valuesPerExample(), w);
        b.arrays("its activations and errors", rows, ACTIVATION_COPIES * model.activations(), w);
        b.knob("--rounds", "hops", hops, h -> new RandomWalkMemory(model, data, parties, h, batch).estimate());
        if (batch != 1) {
            long widest = batch == 0 ? data.widestParty() : batch;
            b.knob("--batch-size", "examples per hop", widest, s -> new RandomWalkMemory(model, data, parties, hops, s).estimate());
        }
        return b.fix("a smaller model").build();
    }
}
