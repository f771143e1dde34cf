package org.dpdl4j.protocol.federated;

import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartyMemory;

/**
 * What a FedAvg-family run holds in one JVM: the clients' data, and in a round the participants' models and gradients
 * as [K, p] matrices ({@link LocalTraining}), the workspace of a local step (the batch, its activations and errors, the
 * weight gradients), and GOPA's pairwise noise (one row per edge of its graph) with its reveal.
 *
 * @param variant    which protocol
 * @param model      the network's sizes
 * @param data       the data and its split
 * @param clients    N, the clients
 * @param sampling   the client sampling
 * @param localBatch the local mini-batch (0: a client's whole data)
 * @param gopaK      GOPA's secrets per client (its graph has at most N K edges)
 */
record FedAvgMemory(FedAvgVariant variant, ModelFootprint model, DataShape data, int clients, ClientSampling sampling,
                    int localBatch, int gopaK) {

    MemoryEstimate estimate() {
        double k = participants(clients);
        double width = LocalTraining.stepSize(localBatch, data.widestParty());
        int w = model.valueBytes();
        MemoryEstimate.Builder b = MemoryEstimate.of(variant.cliName() + " with " + clients + " clients of " + model.describe());
        PartyMemory.splitData(b, data, clients, w, true);
        b.arrays("the participants' models", k, model.parameters(), w);
        b.arrays("their gradients", k, model.parameters(), w);
        PartyMemory.stackedSteps(b, model, k, width, data);
        if (variant == FedAvgVariant.GOPA) {
            b.arrays("GOPA's pairwise noise and reveal", (double) clients * gopaK + k, model.parameters(), w);
        }
        b.knob("--machines", "clients", clients, n -> withClients((int) n).estimate());
        if (localBatch > 1) {
            b.knob("--batch-size", "examples per local step", localBatch, s -> withBatch((int) s).estimate());
        }
        if (!(sampling instanceof ClientSampling.Everyone) || variant != FedAvgVariant.GOPA) {
            b.fix("fewer clients per round (--client-rate)");
        }
        return b.fix("a smaller model").build();
    }

    /** The most participants a round may have: all, the fixed count, or the Poisson count's mean plus four deviations. */
    private double participants(int n) {
        double mean = sampling.expectedCount(n);
        return sampling instanceof ClientSampling.Poisson ? Math.min(n, Math.ceil(mean + 4 * Math.sqrt(mean))) : mean;
    }

    private FedAvgMemory withClients(int n) {
        ClientSampling s = sampling instanceof ClientSampling.FixedSize f
                ? new ClientSampling.FixedSize((int) Math.max(1, Math.round((double) f.count() * n / clients))) : sampling;
        return new FedAvgMemory(variant, model, data.over(n, clients), n, s, localBatch, gopaK);
    }

    private FedAvgMemory withBatch(int batch) {
        return new FedAvgMemory(variant, model, data, clients, sampling, batch, gopaK);
    }
}
