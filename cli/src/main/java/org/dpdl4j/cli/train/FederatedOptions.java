package org.dpdl4j.cli.train;

import picocli.CommandLine.Option;

/**
 * Options of the federated algorithms (mu2-untrusted, mu2-trusted, fedavg, dp-fedavg-local, dp-fedavg-central, gopa).
 * They also read the shared {@code --rounds} (mu2: default one pass, T = examples per machine / batch; the FedAvg family:
 * default 100), {@code --eval-every}, {@code --checkpoint-every}, {@code --resume}, {@code --batch-size} (mu2: examples per
 * machine and round, default 1; FedAvg: local mini-batch, default 32, 0 = the client's whole dataset), {@code --lr} (FedAvg's
 * local rate) and the privacy options.
 */
public final class FederatedOptions {
    @Option(names = "--machines", defaultValue = "10", paramLabel = "M",
            description = "Number of machines (clients) holding the training data; default ${DEFAULT-VALUE}. (--rounds: mu2 defaults to one"
                    + " pass over each machine's data, the FedAvg family to 100; --batch-size: examples per machine and round for mu2,"
                    + " default 1, the local mini-batch for FedAvg, default 32, 0 = all local data.)")
    int machines;

    @Option(names = "--split", defaultValue = "iid", paramLabel = "P",
            description = "Split of the training data over the machines: iid (equal random parts), dirichlet:ALPHA or shards:S; default ${DEFAULT-VALUE}.")
    String split;

    @Option(names = "--pixels", defaultValue = "unit", paramLabel = "SCALE",
            description = "MNIST pixel scaling: unit (p/255, as the DP-mu^2-FL paper) or standardized; default ${DEFAULT-VALUE}.")
    String pixels;

    @Option(names = "--diameter", defaultValue = "0.1", paramLabel = "D",
            description = "mu2: diameter of the parameter ball K = {||theta|| <= D/2}; default ${DEFAULT-VALUE} (the paper's MNIST setup).")
    double diameter;

    @Option(names = "--lipschitz", paramLabel = "G",
            description = "mu2: Lipschitz constant G of the per-example loss; with --smoothness, certifies S = G + 2LD for a convex model"
                    + " (no clipping); default: derived from the data for softmax/logistic regression (then q is clipped to S).")
    Double lipschitz;

    @Option(names = "--smoothness", paramLabel = "L", description = "mu2: smoothness constant L of the per-example loss (see --lipschitz).")
    Double smoothness;

    @Option(names = "--init", paramLabel = "X1",
            description = "mu2 starting point x_1: zero (the centre of K) or model (the network's initialisation, projected onto K);"
                    + " default: zero for softmax/logistic, model for an MLP.")
    String init;

    @Option(names = "--local-steps", defaultValue = "5", paramLabel = "L",
            description = "FedAvg family: local SGD steps per round; default ${DEFAULT-VALUE}.")
    int localSteps;

    @Option(names = "--client-rate", defaultValue = "1", paramLabel = "Q",
            description = "FedAvg family: fraction of clients taking part in a round; default ${DEFAULT-VALUE} (everyone).")
    double clientRate;

    @Option(names = "--client-sampling", defaultValue = "poisson", paramLabel = "S",
            description = "With --client-rate < 1: poisson (each client independently; add/remove accounting) or fixed"
                    + " (exactly round(Q M) clients; replace-one accounting); default ${DEFAULT-VALUE}.")
    String clientSampling;

    @Option(names = "--weighting", defaultValue = "uniform", paramLabel = "W",
            description = "fedavg: weights of the updates, uniform (1/K) or size (m_k / sum m); default ${DEFAULT-VALUE}.")
    String weighting;

    @Option(names = "--server-lr", defaultValue = "1", paramLabel = "ETA",
            description = "FedAvg family: server step on the averaged update; default ${DEFAULT-VALUE}.")
    double serverRate;

    @Option(names = "--gopa-k", defaultValue = "3", paramLabel = "K",
            description = "gopa: each client shares pairwise secrets with K others (random K-out graph); default ${DEFAULT-VALUE}.")
    int gopaK;

    @Option(names = "--colluding-fraction", defaultValue = "0", paramLabel = "F",
            description = "gopa: fraction of clients colluding with the server (rounded up); default ${DEFAULT-VALUE}.")
    double colludingFraction;

    @Option(names = "--colluding-sets", defaultValue = "worst", paramLabel = "A",
            description = "gopa: worst (exact worst colluding set, or the documented upper bound when there are too many) or"
                    + " sampled:N (maximum over N random sets: an estimate, not a guarantee); default ${DEFAULT-VALUE}.")
    String colludingSets;

    @Option(names = "--pairwise-multiplier", paramLabel = "Z",
            description = "gopa: pairwise noise std over S, with --noise-multiplier, instead of calibrating from --epsilon.")
    Double pairwiseMultiplier;

    Federated resolve() {
        return new Federated(machines, split, pixels, diameter, lipschitz, smoothness, init, localSteps, clientRate, clientSampling,
                weighting, serverRate, gopaK, colludingFraction, colludingSets, pairwiseMultiplier);
    }

    /** Resolved federated settings ({@code null} where not given and the default depends on the run). */
    public record Federated(int machines, String split, String pixels, double diameter, Double lipschitz, Double smoothness, String init,
                            int localSteps, double clientRate, String clientSampling, String weighting, double serverRate, int gopaK,
                            double colludingFraction, String colludingSets, Double pairwiseMultiplier) {
    }
}
