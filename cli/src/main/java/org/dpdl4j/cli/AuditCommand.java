package org.dpdl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.dpdl4j.audit.AuditResult;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.experiments.audit.AuditCollection;
import org.dpdl4j.experiments.audit.DecorAudit;
import org.dpdl4j.experiments.audit.DpSgdAudit;
import org.dpdl4j.experiments.audit.FedAvgAudit;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.runtime.options.InvalidOptionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dpdl4j audit}: an empirical lower bound on a DP-SGD run's epsilon from that one run, with planted canaries
 * (see {@link DpSgdAudit}), on a DP-FedAvg run's per observer, with canary clients (see {@link FedAvgAudit}), or on a
 * Decor or LDP run's by the eavesdropper, with canaries at one node (see {@link DecorAudit}); or, with
 * {@code --rescore}, the audit of an earlier run's canaries file again.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Privacy audit in one training run: train with DP-SGD and m planted gradient canaries (each"
                + " included with probability 1/2), guess which were included from the released gradients, and turn"
                + " the guesses into an epsilon the run provably does not beat (Steinke, Nasr and Jagielski 2023).",
                "DP-FedAvg (--algo dp-fedavg-local or dp-fedavg-central) is audited per --observer with m canary"
                        + " clients, each a client whose update is S e_j on a coordinate of its own; the epsilon is the"
                        + " run's own, for one client.",
                "Decor and LDP (--algo decor or ldp) are audited by --observer eavesdropper with m canaries at one node"
                        + " of --nodes on --topology, each adding S e_j to that node's gradient; the epsilon is the run's own,"
                        + " for one user (a node's whole data).",
                "The bound is a lower bound at the stated confidence, not an estimate of the true epsilon.",
                "Writes canaries.csv (coins and scores), audit.json, summary.md and config.json; ends with the lines"
                        + " epsilon_lower= and epsilon= (the accountant's)."})
public final class AuditCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--algo", defaultValue = "dp-sgd", paramLabel = "NAME",
            description = "The audited training: dp-sgd (central DP-SGD), dp-fedavg-local or dp-fedavg-central (DP-FedAvg,"
                    + " audited per --observer with canary clients), decor or ldp (audited by --observer eavesdropper with"
                    + " canaries at one node; default ${DEFAULT-VALUE}).")
    String algo;

    @Option(names = "--observer", paramLabel = "NAME",
            description = "Federated audits: who sees the messages, one of the observers the protocol declares (server for"
                    + " dp-fedavg-local: every client's noisy update; aggregate for dp-fedavg-central: the global model of"
                    + " every round; eavesdropper for decor and ldp: every node's message). Each canary is scored by its"
                    + " log-likelihood ratio over what that observer saw.")
    String observer;

    @Option(converter = Converters.PositiveInt.class, names = "--clients", defaultValue = "100", paramLabel = "N",
            description = "Federated audits: the real clients, the examples split evenly among them (default ${DEFAULT-VALUE};"
                    + " the canary clients come on top).")
    int clients;

    @Option(converter = Converters.PositiveInt.class, names = "--rounds", defaultValue = "50", paramLabel = "T",
            description = "Federated and decentralized audits: rounds (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(converter = Converters.PositiveInt.class, names = "--local-steps", defaultValue = "1", paramLabel = "L",
            description = "Federated audits: local SGD steps per round, on mini-batches of --batch-size (default ${DEFAULT-VALUE}).")
    int localSteps;

    @Option(converter = Converters.Positive.class, names = "--client-rate", defaultValue = "1", paramLabel = "Q",
            description = "Federated audits: the fraction of clients per round, Poisson when below 1 (default ${DEFAULT-VALUE}).")
    double clientRate;

    @Option(converter = Converters.NonNegativeInt.class, names = "--blank-features", defaultValue = "0", paramLabel = "K",
            description = "Federated and decentralized audits: append K features that are 0 on every example, whose first-layer weights no"
                    + " party's data moves, room for the canaries (e.g. for --dataset synthetic; default"
                    + " ${DEFAULT-VALUE}).")
    int blankFeatures;

    @Option(names = "--nodes", paramLabel = "N",
            description = "Decentralized audits: the nodes, the examples split evenly among them; RxC for a torus (default "
                    + DEFAULT_NODES + ").")
    String nodes;

    @Option(names = "--topology", paramLabel = "T",
            description = "Decentralized audits: the graph: ring, torus (or torus:RxC), complete, star, path, regular:D,"
                    + " erdos-renyi:P, k-out:K (default " + DEFAULT_TOPOLOGY + ").")
    String topology;

    /** The graph of a decentralized audit when --nodes and --topology are not given. */
    static final String DEFAULT_NODES = "16";
    static final String DEFAULT_TOPOLOGY = "ring";

    @Option(names = "--dataset", defaultValue = "synthetic", paramLabel = "NAME",
            description = "synthetic (generated: 50 Gaussian features, two classes), mnist, a9a or covtype-20k"
                    + " (default ${DEFAULT-VALUE}).")
    String dataset;

    @Option(converter = Converters.PositiveInt.class, names = "--examples", paramLabel = "N",
            description = "Train on the first N examples (synthetic: generate N; default: all, 5000 for synthetic).")
    Integer examples;

    @Option(names = "--hidden", defaultValue = "128", split = ",", paramLabel = "SIZES",
            description = "Hidden layer sizes of the MLP, comma-separated (default ${DEFAULT-VALUE}).")
    List<Integer> hidden;

    @Option(converter = Converters.Positive.class, names = "--epsilon", paramLabel = "E",
            description = "Target epsilon the noise is calibrated to (required unless --rescore).")
    Double epsilon;

    @Option(converter = Converters.Probability.class, names = "--delta", defaultValue = "1e-5", paramLabel = "D",
            description = "Delta of the run and of the audit's hypotheses (default ${DEFAULT-VALUE}).")
    double delta;

    @Option(converter = Converters.Positive.class, names = "--clip", defaultValue = "1", paramLabel = "C",
            description = "Per-example clip C, also the canaries' norm (default ${DEFAULT-VALUE}).")
    double clip;

    @Option(converter = Converters.PositiveInt.class, names = "--batch-size", defaultValue = "256", paramLabel = "B",
            description = "Expected batch size (Poisson sampling over the examples and the included canaries; default"
                    + " ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(converter = Converters.Positive.class, names = "--epochs", defaultValue = "5", paramLabel = "E",
            description = "Passes over the data (default ${DEFAULT-VALUE}).")
    double epochs;

    @Option(converter = Converters.Positive.class, names = "--learning-rate", defaultValue = "0.1", paramLabel = "ETA",
            description = "SGD learning rate (default ${DEFAULT-VALUE}).")
    double learningRate;

    @Option(converter = Converters.PositiveInt.class, names = "--canaries", defaultValue = "1000", paramLabel = "M",
            description = "Number of canaries m (default ${DEFAULT-VALUE}).")
    int canaries;

    @Option(names = "--auditor", defaultValue = "white-box", paramLabel = "KIND",
            description = "white-box: gradient canaries, each scored by the sum over all steps of the released"
                    + " gradient's inner product with it; white-box-centred: the same after subtracting the data's"
                    + " expected clipped gradient at each step (the adversary DP guards against may know the data;"
                    + " stronger when the data's gradients are coherent, one pass over the data per step);"
                    + " white-box-lr: each canary's log-likelihood ratio of inclusion over every step, the most"
                    + " powerful score when the data adds nothing to the canaries (use with --canary dirac); black-box:"
                    + " input canaries (held-out examples with a wrong label: test examples of mnist and a9a, the rows"
                    + " after --examples of covtype-20k, generated ones of synthetic), scored by the final model's"
                    + " confidence in their label (default ${DEFAULT-VALUE}).")
    String auditor;

    @Option(names = "--canary", defaultValue = "random", paramLabel = "KIND",
            description = "Kind of the white-box gradient canaries: random (random directions of norm C) or dirac (C e_j,"
                    + " each on its own first-layer weight fed by an input feature that is 0 on every training example,"
                    + " where the data's gradient is exactly 0; refused when there are fewer such weights than"
                    + " canaries; default ${DEFAULT-VALUE}).")
    String canary;

    @Option(names = "--pixel-scaling", defaultValue = "standardized", paramLabel = "SCALING",
            description = "mnist only: standardized ((p/255 - 0.1307) / 0.3081) or unit (p/255, which keeps blank pixels"
                    + " at 0, as --canary dirac needs; default ${DEFAULT-VALUE}).")
    String pixelScaling;

    @Option(converter = Converters.Probability.class, names = "--confidence", defaultValue = "0.95", paramLabel = "P",
            description = "Confidence of the lower bound (default ${DEFAULT-VALUE}).")
    double confidence;

    @Option(converter = Converters.PositiveInt.class, names = "--guesses", paramLabel = "K",
            description = "Guess 'in' on the K top scores only (default: the best of K = 1%%, 2%%, 5%%, 10%%, 20%%, 50%% of"
                    + " m, each at confidence 1 - beta/6).")
    Integer guesses;

    @Option(converter = Converters.NoiseKindConverter.class, names = "--noise", defaultValue = "secure", paramLabel = "KIND",
            description = "secure (noise, sampling and coins from secure sources) or seeded (repeatable from --seed, NOT"
                    + " secure; default ${DEFAULT-VALUE}).")
    NoiseKind noise;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S",
            description = "Seed of the initialisation and the canaries' directions (and of every stream with --noise"
                    + " seeded; default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--rescore", paramLabel = "FILE",
            description = "Audit the canaries.csv of an earlier audit again (with --delta, --confidence, --guesses),"
                    + " without training; writes nothing.")
    Path rescore;

    @Option(names = "--summarize", paramLabel = "DIR",
            description = "Collect the audits in DIR's sub-folders: DIR/audits.csv and DIR/epsilon-lower.png (each"
                    + " audit's lower bound against its claimed epsilon, with the diagonal); trains nothing.")
    Path summarize;

    @Mixin
    DataDirOption data;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/<time>-audit-dp-sgd-<dataset>; for the federated and"
            + " decentralized audits runs/<time>-audit-<algo>-<observer>-<dataset>).")
    Path out;

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter console = spec.commandLine().getOut();
        boolean federated = FedAvgAudit.ALGORITHMS.contains(algo);
        boolean decentralized = DecorAudit.ALGORITHMS.contains(algo);
        if (!algo.equals("dp-sgd") && !federated && !decentralized) {
            throw bad("--algo " + algo + ": not audited; use --algo dp-sgd, or per --observer one of "
                    + String.join(", ", FedAvgAudit.ALGORITHMS) + ", " + String.join(", ", DecorAudit.ALGORITHMS));
        }
        try {
            if (rescore != null && summarize != null) {
                throw bad("--rescore and --summarize: give one");
            }
            if (rescore != null) {
                return rescore(console);
            }
            if (summarize != null) {
                return summarize(console);
            }
            if (dataset.equalsIgnoreCase("synthetic") && data.dataDir != null) {
                throw bad("--data-dir does not apply to --dataset synthetic, which is generated from --seed; drop it");
            }
            if (hidden.stream().anyMatch(h -> h == null || h < 1)) {
                throw bad("--hidden " + hidden.stream().map(String::valueOf).collect(Collectors.joining(","))
                        + ": every hidden layer needs at least 1 unit; give sizes such as 128 or 256,128");
            }
            if (!dataset.equalsIgnoreCase("mnist") && spec.commandLine().getParseResult().hasMatchedOption("--pixel-scaling")) {
                throw bad("--pixel-scaling applies to --dataset mnist only; drop it");
            }
            PixelScaling scaling = switch (pixelScaling.toLowerCase(Locale.ROOT)) {
                case "unit" -> PixelScaling.UNIT_INTERVAL;
                case "standardized", "standardised" -> PixelScaling.STANDARDIZED;
                default -> throw bad("--pixel-scaling: unknown value '" + pixelScaling + "'; use standardized or unit");
            };
            if (epsilon == null) {
                throw bad("--epsilon is required: the target epsilon of the audited run, e.g. --epsilon 8");
            }
            if (noise == NoiseKind.PHILOX) {
                throw bad("--noise philox: an audit draws its noise, sampling and coins from secure sources or from --seed;"
                        + " use --noise secure or seeded");
            }
            if (federated) {
                return federated(console, scaling);
            }
            if (decentralized) {
                return decentralized(console, scaling);
            }
            for (String option : DECENTRALIZED_ONLY) {
                if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw bad(option + " applies to the decentralized audits (--algo " + String.join(", ", DecorAudit.ALGORITHMS)
                            + "); drop it for dp-sgd");
                }
            }
            for (String option : FEDERATED_OPTIONS) {
                if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw bad(option + " applies to the federated audits (--algo " + String.join(", ", FedAvgAudit.ALGORITHMS)
                            + "); drop it for dp-sgd");
                }
            }
            if (DpSgdAudit.BLACK_BOX.equalsIgnoreCase(auditor) && spec.commandLine().getParseResult().hasMatchedOption("--canary")) {
                throw bad("--canary chooses the white-box auditors' gradient canaries, which the black-box auditor does not"
                        + " see (its canaries are mislabelled examples); use a white-box auditor or drop --canary");
            }
            DpSgdAudit.Settings settings = new DpSgdAudit.Settings(dataset.toLowerCase(Locale.ROOT),
                    examples == null ? 0 : examples, hidden, epsilon, delta, clip, batchSize, epochs, learningRate,
                    canaries, auditor.toLowerCase(Locale.ROOT), canary.toLowerCase(Locale.ROOT), scaling, confidence, guesses, noise, seed,
                    dataset.equalsIgnoreCase("synthetic") ? null : data.resolve(spec.commandLine()), out);
            new DpSgdAudit(settings).run(spec.commandLine().getParseResult().originalArgs(), console);
            return 0;
        } catch (InvalidOptionException e) {
            throw bad(e.getMessage());
        }
    }

    /** The options of the federated audits only. */
    private static final List<String> FEDERATED_OPTIONS = List.of("--observer", "--clients", "--rounds", "--local-steps",
            "--client-rate", "--blank-features");

    /** The options of the decentralized audits only. */
    private static final List<String> DECENTRALIZED_ONLY = List.of("--nodes", "--topology");

    private int decentralized(PrintWriter console, PixelScaling scaling) throws IOException {
        for (String option : List.of("--epochs", "--auditor", "--canary", "--batch-size", "--clients", "--client-rate",
                "--local-steps")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw bad(option + " does not apply to --algo " + algo + ": its nodes take full-batch gradients of their"
                        + " share of the examples for --rounds, split over --nodes, and its canaries sit at one node,"
                        + " scored by the --observer's likelihood ratio; drop it");
            }
        }
        DecentralizedAlgorithm algorithm = DecorAudit.algorithm(algo);
        if (observer == null) {
            throw bad("--algo " + algo + " is audited per observer: give --observer, one of "
                    + String.join(", ", DecorAudit.observers(algorithm)));
        }
        DecorAudit.Settings settings = new DecorAudit.Settings(algorithm, observer, dataset.toLowerCase(Locale.ROOT),
                examples == null ? 0 : examples, blankFeatures, hidden, epsilon, delta, clip,
                topology == null ? DEFAULT_TOPOLOGY : topology, nodes == null ? DEFAULT_NODES : nodes, rounds, learningRate,
                canaries, scaling, confidence, guesses, noise, seed,
                dataset.equalsIgnoreCase("synthetic") ? null : data.resolve(spec.commandLine()), out);
        new DecorAudit(settings).run(spec.commandLine().getParseResult().originalArgs(), console);
        return 0;
    }

    private int federated(PrintWriter console, PixelScaling scaling) throws IOException {
        for (String option : List.of("--epochs", "--auditor", "--canary", "--nodes", "--topology")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw bad(option + " does not apply to --algo " + algo + ": it runs --rounds over --clients, and its canaries are clients"
                        + " with Dirac updates scored by the --observer's likelihood ratio; drop it");
            }
        }
        FedAvgVariant variant = FedAvgVariant.fromCliName(algo);
        if (observer == null) {
            throw bad("--algo " + algo + " is audited per observer: give --observer, one of "
                    + String.join(", ", FedAvgAudit.observers(variant)));
        }
        if (clientRate > 1) {
            throw bad("--client-rate " + clientRate + ": the fraction of clients per round lies in (0, 1]");
        }
        FedAvgAudit.Settings settings = new FedAvgAudit.Settings(variant, observer, dataset.toLowerCase(Locale.ROOT),
                examples == null ? 0 : examples, blankFeatures, hidden, epsilon, delta, clip, clients, rounds, localSteps,
                batchSize, learningRate, clientRate, canaries, scaling, confidence, guesses, noise, seed,
                dataset.equalsIgnoreCase("synthetic") ? null : data.resolve(spec.commandLine()), out);
        new FedAvgAudit(settings).run(spec.commandLine().getParseResult().originalArgs(), console);
        return 0;
    }

    private int summarize(PrintWriter console) throws IOException {
        refuseRunOptions(List.of("--delta", "--confidence", "--guesses"), "--summarize, which collects finished audits");
        List<AuditCollection.Row> rows;
        try {
            rows = AuditCollection.summarize(summarize);
        } catch (IllegalArgumentException e) {
            throw bad("--summarize " + summarize + ": " + e.getMessage());
        }
        for (AuditCollection.Row r : rows) {
            console.printf(Locale.ROOT, "%-48s %-40s epsilon %6s  epsilon_lower %6s%n", r.run(), r.kind(),
                    EpsilonFormat.upward(r.epsilon(), 3), EpsilonFormat.downward(r.epsilonLower(), 3));
        }
        console.printf("Wrote %s: audits.csv, epsilon-lower.png%n", summarize);
        console.flush();
        return 0;
    }

    /** The options of a new audit run (and {@code more}), refused by a mode that runs none. */
    private void refuseRunOptions(List<String> more, String mode) {
        List<String> options = new java.util.ArrayList<>(List.of("--algo", "--auditor", "--epsilon", "--out", "--examples",
                "--dataset", "--canaries", "--epochs", "--batch-size", "--clip", "--learning-rate", "--hidden", "--noise",
                "--seed", "--data-dir", "--canary", "--pixel-scaling", "--observer", "--clients", "--rounds", "--local-steps",
                "--client-rate", "--blank-features", "--nodes", "--topology"));
        options.addAll(more);
        for (String option : options) {
            if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw bad(option + " does not apply with " + mode + "; drop it");
            }
        }
    }

    private int rescore(PrintWriter console) throws IOException {
        refuseRunOptions(List.of(), "--rescore, which audits the scores of a finished run");
        AuditResult r = DpSgdAudit.rescore(rescore, delta, confidence, guesses);
        console.print(r.text());
        console.println("epsilon_lower=" + EpsilonFormat.downward(r.epsilonLower(), 6));
        console.flush();
        return 0;
    }
}
