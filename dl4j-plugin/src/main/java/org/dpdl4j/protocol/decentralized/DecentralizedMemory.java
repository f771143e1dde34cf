package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartyMemory;

/**
 * What a decentralized run (D-SGD, Decor, LDP, CDP) holds in one JVM ({@link DecentralizedTrainer}): the nodes' data,
 * their models as an [n, p] matrix and the buffer gossip writes into, the noise of the round and of the next one (drawn
 * ahead), for Decor also the pairwise noise of every edge, the dense mixing matrix the gossip operator is read from,
 * and the round's workspace (the gradients and the stacked engine's temporaries).
 *
 * @param algorithm the algorithm
 * @param model     the network's sizes
 * @param data      the nodes' data
 * @param nodes     n
 * @param edges     the graph's edges
 * @param sampling  the local sampling scheme
 * @param batch     examples per node and round (ignored for full batches)
 */
record DecentralizedMemory(DecentralizedAlgorithm algorithm, ModelFootprint model, DataShape data, int nodes, long edges,
                           SamplingScheme sampling, long batch) {
    /** The largest memory pool the C library gives a thread of its own (64 MB on 64-bit Linux). */
    private static final double LOOK_AHEAD_ARENA = 64e6;

    MemoryEstimate estimate() {
        int w = model.valueBytes();
        double n = nodes;
        MemoryEstimate.Builder b = MemoryEstimate.of(algorithm.cliName() + " with " + nodes + " nodes of " + model.describe());
        PartyMemory.splitData(b, data, nodes, w, true);
        b.arrays("the nodes' models and their gossip buffer", 2 * n, model.parameters(), w);
        b.arrays("their gradients", n, model.parameters(), w);
        if (algorithm.isPrivate()) {
            b.arrays("their noise, this round's and the next", 2 * n, model.parameters(), w);
            b.add("the thread that draws the next round's noise (its C library arena)", LOOK_AHEAD_ARENA, 0);
        }
        if (algorithm == DecentralizedAlgorithm.DECOR) {
            b.arrays("the edges' pairwise noise, this round's and the next", 2.0 * edges, model.parameters(), w);
        }
        b.add("the mixing matrix", 8 * n * n, 16 * n * n);
        PartyMemory.stackedSteps(b, model, n, width(), data);
        b.knob("--nodes", "nodes", nodes, m -> new DecentralizedMemory(algorithm, model, data.over(m, nodes), (int) m,
                Math.max(m - 1, Math.round((double) edges * m / nodes)), sampling, batch).estimate());
        if (sampling != SamplingScheme.FULL_BATCH && batch > 1) {
            b.knob("--batch-size", "examples per node and round", batch, s -> new DecentralizedMemory(algorithm, model, data, nodes,
                    edges, sampling, s).estimate());
        }
        return b.fix("a smaller model").build();
    }

    /** The widest batch of a round: a node's whole data, a fixed-size batch, or a Poisson batch's mean plus four deviations. */
    private double width() {
        return switch (sampling) {
            case FULL_BATCH -> data.widestParty();
            case POISSON -> Math.min(data.widestParty(), Math.ceil(batch + 4 * Math.sqrt(batch)));
            default -> Math.min(data.widestParty(), batch);
        };
    }
}
