package org.dpdl4j.cli.train;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Options of the decentralized algorithms (dsgd, decor, ldp, cdp). */
public final class DecentralizedOptions {
    @Option(names = "--topology", defaultValue = "ring", paramLabel = "T",
            description = "Graph: ring, torus, complete, star, path, regular:D, erdos-renyi:P, k-out:K or file:PATH; default ${DEFAULT-VALUE}.")
    String topology;

    @Option(names = "--nodes", defaultValue = "16", paramLabel = "N", description = "Number of nodes (RxC for a torus); default ${DEFAULT-VALUE}.")
    String nodes;

    @Option(names = "--rounds", paramLabel = "T", description = "Gossip rounds; default: the paper's (3500 synthetic, 5000 a9a, 1000 mnist).")
    Long rounds;

    @Option(names = "--adversary", defaultValue = "eavesdropper", paramLabel = "A",
            description = "Decor threat model: eavesdropper, curious or colluding:Q; default ${DEFAULT-VALUE}.")
    String adversary;

    @Option(names = "--partition", defaultValue = "dirichlet:10", paramLabel = "P",
            description = "Split of the training data over nodes: iid, dirichlet:ALPHA or shards:S; default ${DEFAULT-VALUE}.")
    String partition;

    @Option(names = "--unit", paramLabel = "U",
            description = "Protected unit: user (clip each node's gradient) or example (per-example clipping); default: example for mnist, user otherwise.")
    String unit;

    @Option(names = "--sigma-cdp", paramLabel = "S", description = "Private noise std, instead of calibrating from --epsilon.")
    Double sigmaCdp;

    @Option(names = "--sigma-cor", paramLabel = "S", description = "Decor pairwise noise std, instead of calibrating from --epsilon.")
    Double sigmaCor;

    @Option(names = "--noise-pair", defaultValue = "smallest", paramLabel = "P",
            description = "Which calibrated Decor pair to use: smallest, middle or largest sigma_cdp; default ${DEFAULT-VALUE}.")
    String noisePair;

    @Option(names = "--lr-decay", paramLabel = "T0",
            description = "Learning rate eta_0/(1 + t/T0); default: 5000 for a9a and mnist (as the Decor scripts), constant otherwise.")
    Double learningRateDecay;

    @Option(names = "--reference-compat", description = "Decor only: reproduce the reference code's deviations (pairwise noise drawn once and scaled by W_ij). Not the paper's algorithm.")
    boolean referenceCompatibility;

    @Option(names = "--eval-every", paramLabel = "K", description = "Evaluate the average model every K rounds; default rounds/50.")
    Long evalEvery;

    @Option(names = "--checkpoint-every", defaultValue = "0", paramLabel = "K", description = "Write a checkpoint every K rounds (0: only at the end).")
    long checkpointEvery;

    @Option(names = "--resume", paramLabel = "FILE", description = "Resume from a checkpoint written by an earlier run with the same settings.")
    Path resume;

    Decentralized resolve() {
        return new Decentralized(topology, nodes, rounds, adversary, partition, unit, sigmaCdp, sigmaCor, noisePair,
                learningRateDecay, referenceCompatibility, evalEvery, checkpointEvery, resume);
    }

    /** Resolved decentralized settings ({@code null} where the default depends on the data set). */
    public record Decentralized(String topology, String nodes, Long rounds, String adversary, String partition, String unit,
                                Double sigmaCdp, Double sigmaCor, String noisePair, Double learningRateDecay,
                                boolean referenceCompatibility, Long evalEvery, long checkpointEvery, Path resume) {
    }
}
