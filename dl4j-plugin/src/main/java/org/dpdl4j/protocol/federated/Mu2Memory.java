package org.dpdl4j.protocol.federated;

import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartyMemory;

/**
 * What a µ²-SGD run holds in one JVM ({@link Mu2Trainer}): the machines' data, split and restacked round by round, the
 * machines' momentum estimates and their messages as [M, p] matrices, the two query points of every machine and
 * their gradients as [2M, p] matrices ({@link Mu2Machines}), and the round's workspace: the stacked engine's
 * temporaries for 2M models.
 *
 * @param protocol the protocol's name
 * @param model    the network's sizes
 * @param data     the data and its split
 * @param machines M
 * @param batch    examples per machine and round
 */
record Mu2Memory(String protocol, ModelFootprint model, DataShape data, int machines, long batch) {

    MemoryEstimate estimate() {
        int w = model.valueBytes();
        double m = machines;
        MemoryEstimate.Builder b = MemoryEstimate.of(protocol + " with " + machines + " machines of " + model.describe());
        PartyMemory.splitData(b, data, machines, w, true);
        b.arrays("the machines' momentum estimates and messages", 2 * m, model.parameters(), w);
        b.arrays("their query points and gradients", 4 * m, model.parameters(), w);
        PartyMemory.stackedSteps(b, model, 2 * m, Math.min(batch, data.widestParty()), data);
        b.knob("--machines", "machines", machines,
                n -> new Mu2Memory(protocol, model, data.over(n, machines), (int) n, batch).estimate());
        if (batch > 1) {
            b.knob("--batch-size", "examples per machine and round", batch,
                    s -> new Mu2Memory(protocol, model, data, machines, s).estimate());
        }
        return b.fix("a smaller model").build();
    }
}
