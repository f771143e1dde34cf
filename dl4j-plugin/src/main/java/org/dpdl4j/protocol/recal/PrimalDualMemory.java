package org.dpdl4j.protocol.recal;

import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartyMemory;

/**
 * What a primal-dual run (RECAL and the baselines) holds: the agents' data, each agent's problem in double precision
 * with its cached Gram matrix {@code X^T X} (least squares up to {@link LocalProblem#MAX_GRAM_COLUMNS} columns), every
 * agent's iterates as [n, q c] matrices with an iteration's temporaries, the dense mixing matrix (and for the gossip
 * baselines its copy as an array and PG-EXTRA's eigendecomposition), and a relay's baton path.
 *
 * @param algorithm     the algorithm
 * @param model         the linear model's sizes (q c parameters)
 * @param data          the data and its split
 * @param agents        n
 * @param iterations    the iterations (a relay's path has one agent per iteration)
 */
record PrimalDualMemory(PrimalDualAlgorithm algorithm, ModelFootprint model, DataShape data, int agents, long iterations) {

    MemoryEstimate estimate() {
        double n = agents;
        double c = Math.max(1, data.labels());
        double q = model.parameters() / c;
        boolean relay = algorithm.isRelay();
        boolean gossip = !relay && algorithm != PrimalDualAlgorithm.RECAL_SYNC;
        // iterates kept across iterations and the temporaries of one: x and the duals for a relay; PG-EXTRA's six
        // matrices (NIDS' four) and as many temporaries for the gossip baselines; the synchronous iteration's two and four
        double iterateCopies = relay ? 3 : gossip ? 12 : 6;
        MemoryEstimate.Builder b = MemoryEstimate.of(algorithm.cliName() + " with " + agents + " agents of " + model.describe());
        PartyMemory.splitData(b, data, agents, model.valueBytes(), false);
        // the features cast to double, their row-major copy and the copy the Gram product reads
        b.arrays("the agents' problems in double precision", 3 * data.examples(), q + c, 8);
        if (q <= LocalProblem.MAX_GRAM_COLUMNS) {
            b.arrays("their Gram matrices", n, q * q + q * c, 8);
        }
        b.arrays("their iterates", iterateCopies * n, q * c, 8);
        b.add("the mixing matrix", gossip ? 8 * n * n : 0, (gossip ? 40 : 16) * n * n);
        if (relay) {
            b.heap("the baton's path", 4.0 * iterations);
            b.knob("--rounds", "iterations", iterations, t -> new PrimalDualMemory(algorithm, model, data, agents, t).estimate());
        }
        b.knob("--nodes", "agents", agents, m -> new PrimalDualMemory(algorithm, model, data.over(m, agents), (int) m, iterations)
                .estimate());
        return b.build();
    }
}
