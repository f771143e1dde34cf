package org.dpdl4j.cli.train;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;

/** Options of {@code dpdl4j train} that every algorithm reads. */
public final class CommonOptions {
    @Option(names = "--algo", defaultValue = "sgd", paramLabel = "ALGO",
            description = "Training algorithm: sgd (centralised; DP-SGD with --privacy central), dsgd, decor, ldp, cdp (decentralized), and the federated algorithms; default ${DEFAULT-VALUE}.")
    String algorithm;

    @Option(names = "--dataset", required = true, paramLabel = "NAME",
            description = "mnist, a9a, covtype (93k subset), covtype-20k, or synthetic-lsq (Decor's least-squares task, no download).")
    String dataset;

    @Option(names = "--task", paramLabel = "TASK",
            description = "covtype task: binary (cover type 2 vs rest, default) or multiclass (7 types).")
    String task;

    @Option(names = "--test-fraction", defaultValue = "0.2", paramLabel = "F",
            description = "Held-out fraction for data sets without a test file (covtype); default ${DEFAULT-VALUE}.")
    double testFraction;

    @Option(names = "--model", paramLabel = "MODEL",
            description = "mlp, logistic, softmax or least-squares; default: mlp (mnist), logistic (a9a, covtype binary), softmax (covtype multiclass), least-squares (synthetic-lsq).")
    String model;

    @Option(names = "--hidden", split = ",", paramLabel = "SIZES", description = "MLP hidden layer sizes; default 128.")
    List<Integer> hidden;

    @Option(names = "--activation", defaultValue = "relu", paramLabel = "FN", description = "MLP hidden activation; default ${DEFAULT-VALUE}.")
    String activation;

    @Option(names = "--epochs", paramLabel = "E", description = "Passes over the training data (centralised training).")
    Integer epochs;

    @Option(names = "--batch-size", paramLabel = "B", description = "Mini-batch size (expected size under Poisson sampling).")
    Integer batchSize;

    @Option(names = "--lr", paramLabel = "ETA", description = "Learning rate.")
    Double learningRate;

    @Option(names = "--updater", paramLabel = "U",
            description = "DL4J updater for centralised training: sgd, momentum (Nesterov 0.9) or adam; default: adam for covtype, sgd otherwise.")
    String updater;

    @Option(names = "--weight-decay", defaultValue = "0", paramLabel = "LAMBDA", description = "Weight decay; default ${DEFAULT-VALUE}.")
    double weightDecay;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed of the model, data split and seeded streams; default ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Data directory; default $DPDL4J_DATA, else ~/.dpdl4j/data.")
    Path dataDir;

    @Option(names = "--out", paramLabel = "DIR", description = "Run directory; default runs/<time>-<name>.")
    Path out;

    /** The resolved values. */
    Common resolve() {
        return new Common(algorithm, dataset, task, testFraction, model, hidden == null ? List.of(128) : List.copyOf(hidden),
                activation, epochs, batchSize, learningRate, updater, weightDecay, seed, dataDir, out);
    }

    /**
     * Resolved common settings; {@code null} for values whose default depends on the data set or the
     * algorithm (filled in by the job).
     */
    public record Common(String algorithm, String dataset, String task, double testFraction, String model, List<Integer> hidden,
                         String activation, Integer epochs, Integer batchSize, Double learningRate, String updater,
                         double weightDecay, long seed, Path dataDir, Path out) {
    }
}
