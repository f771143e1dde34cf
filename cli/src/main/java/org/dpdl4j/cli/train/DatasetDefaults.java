package org.dpdl4j.cli.train;

/**
 * Per-data-set defaults of the options whose best value depends on the data (the values the project's
 * baselines and the papers' workloads use).
 *
 * @param updater         DL4J updater of centralised training (sgd, momentum, adam)
 * @param epochs          centralised training epochs
 * @param batchSize       mini-batch size
 * @param learningRate    learning rate (centralised and decentralized)
 * @param rounds          decentralized rounds (the Decor paper's T)
 * @param decentralizedBatch per-node batch size of the decentralized runs
 * @param exampleLevel    whether decentralized privacy is example level by default (MNIST) or user level
 * @param learningRateDecay time scale of eta_0/(1 + t/T0) for decentralized runs, or 0 for a constant rate
 */
record DatasetDefaults(String updater, int epochs, int batchSize, double learningRate, long rounds, int decentralizedBatch, boolean exampleLevel,
                       double learningRateDecay) {

    static DatasetDefaults of(String dataset) {
        return switch (dataset) {
            case "mnist" -> new DatasetDefaults("sgd", 20, 64, 0.1, 1000, 64, true, 5000);
            case "a9a" -> new DatasetDefaults("sgd", 10, 64, 0.1, 5000, 64, false, 5000);
            case "covtype", "covtype-20k" -> new DatasetDefaults("adam", 40, 256, 0.01, 5000, 64, false, 5000);
            case "synthetic-lsq" -> new DatasetDefaults("sgd", 3500, 0, 1.668e-3, 3500, 0, false, 0);
            default -> throw new IllegalArgumentException("unknown data set '" + dataset
                    + "'; use mnist, a9a, covtype, covtype-20k or synthetic-lsq");
        };
    }
}
