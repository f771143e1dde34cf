package org.dpdl4j.experiments.audit;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.audit.AuditResult;
import org.dpdl4j.audit.CanaryClients;
import org.dpdl4j.audit.CanaryNode;
import org.dpdl4j.audit.EavesdropperAudit;
import org.dpdl4j.audit.GuessPlan;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.models.MlpModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedProtocol;
import org.dpdl4j.protocol.decentralized.DecentralizedRunBuilder;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * {@code dpdl4j audit --algo decor|ldp --observer eavesdropper}: one run of Decor (or its local-DP baseline) at a target
 * epsilon per user, with m canaries planted at one node ({@link CanaryNode}: each "in" with probability 1/2, adding
 * {@code S e_j} to that node's clipped gradient every round, its mirror when "out"), on coordinates no node's data moves.
 * The eavesdropper sees every message; each canary is scored by its log-likelihood ratio over every round
 * ({@link EavesdropperAudit}). Full-batch local gradients, user-level privacy: the accountant's epsilon is the run's
 * ledger's, for one node's whole data, and each canary changes one node's contribution by at most that much.
 */
public final class DecorAudit {
    /** The decentralized protocols audited per observer. */
    public static final List<String> ALGORITHMS = List.of(DecentralizedAlgorithm.DECOR.cliName(),
            DecentralizedAlgorithm.LDP.cliName());
    /** The observers this audit can play; the others a protocol declares are refused with this list. */
    static final List<String> AUDITED_OBSERVERS = List.of("eavesdropper");
    /** The node whose messages carry the canaries. */
    static final int CANARY_NODE = 0;

    /**
     * What to audit.
     *
     * @param algorithm     Decor or LDP
     * @param observer      a name the protocol declares ({@link DecentralizedProtocol#observers()})
     * @param dataset       a name of {@link DpSgdAudit#DATASETS}
     * @param examples      the first so many training examples, or 0 for all
     * @param blankFeatures features appended that are 0 on every example, room for the canaries
     * @param hidden        the MLP's hidden layer sizes
     * @param epsilon       the target epsilon per user (node)
     * @param delta         delta
     * @param clip          S, the clip of each node's gradient (also the canaries' norm)
     * @param topology      the graph, as {@code --topology} names it
     * @param nodes         the node count, as {@code --nodes} gives it (an integer, or RxC for a torus)
     * @param rounds        T
     * @param learningRate  the nodes' learning rate
     * @param canaries      m
     * @param pixelScaling  how MNIST's pixels become features
     * @param confidence    of the lower bound
     * @param guessesIn     a fixed number of "in" guesses, or null for the default sweep
     * @param noise         secure or seeded
     * @param seed          seed of the initialisation and, for seeded noise, of every stream and the coins
     * @param data          the data directory (null for synthetic)
     * @param out           the output directory, or null for a new one under runs/
     */
    public record Settings(DecentralizedAlgorithm algorithm, String observer, String dataset, int examples,
                           int blankFeatures, List<Integer> hidden, double epsilon, double delta, double clip,
                           String topology, String nodes, long rounds, double learningRate, int canaries,
                           PixelScaling pixelScaling, double confidence, Integer guessesIn, NoiseKind noise, long seed,
                           DataDirectory data, Path out) {
    }

    private final Settings s;

    public DecorAudit(Settings settings) {
        this.s = settings;
    }

    /** The algorithm named on the command line, or null when it is not one of {@link #ALGORITHMS}. */
    public static DecentralizedAlgorithm algorithm(String cliName) {
        for (DecentralizedAlgorithm a : DecentralizedAlgorithm.values()) {
            if (a.cliName().equals(cliName) && ALGORITHMS.contains(cliName)) {
                return a;
            }
        }
        return null;
    }

    /** The observer names a protocol declares. */
    public static List<String> observers(DecentralizedAlgorithm algorithm) {
        return new DecentralizedProtocol(algorithm).observers().stream().map(ObserverDeclaration::name).toList();
    }

    /**
     * Checks the settings, claims the output directory, trains with the canaries, audits and writes the files.
     *
     * @throws InvalidOptionException naming the option that does not fit, and the fix
     */
    public DpSgdAudit.Outcome run(List<String> arguments, PrintWriter console) throws IOException {
        Graph graph = check();
        String name = "audit-" + s.algorithm().cliName() + "-" + s.observer().replace(' ', '-') + "-" + s.dataset();
        try (RunDirectory run = RunDirectory.of(s.out(), "dpdl4j audit", name)) {
            return run(run, graph, arguments, console);
        }
    }

    private Graph check() {
        if (!ALGORITHMS.contains(s.algorithm().cliName())) {
            throw new InvalidOptionException("--algo", "--algo " + s.algorithm().cliName() + " is not audited per observer;"
                    + " use one of " + String.join(", ", ALGORITHMS));
        }
        PartyAudits.requireDeclared(s.algorithm().cliName(), observers(s.algorithm()), s.observer());
        if (!AUDITED_OBSERVERS.contains(s.observer())) {
            throw new InvalidOptionException("--observer", "--observer " + s.observer() + ": " + s.algorithm().cliName()
                    + " declares it, but only the " + String.join(", ", AUDITED_OBSERVERS) + " is audited so far;"
                    + " use --observer " + AUDITED_OBSERVERS.get(0));
        }
        AuditSettingsCheck.requireCommon(s.dataset(), s.canaries(), s.guessesIn());
        PartyAudits.requireHidden(s.hidden());
        Graph graph;
        try {
            graph = TopologySpec.resolve(s.topology(), s.nodes(), s.seed());
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("--topology", "--topology " + s.topology() + " --nodes " + s.nodes() + ": "
                    + e.getMessage());
        }
        if (graph.vertexCount() < 2) {
            throw new InvalidOptionException("--nodes", "--nodes " + s.nodes() + ": a decentralized run needs at least 2"
                    + " nodes");
        }
        return graph;
    }

    private DpSgdAudit.Outcome run(RunDirectory run, Graph graph, List<String> arguments, PrintWriter console)
            throws IOException {
        LabeledData data = AuditData.load(s.dataset(), s.examples(), s.canaries(), false, s.seed(), s.data(),
                s.pixelScaling()).train();
        INDArray x = PartyAudits.withBlankFeatures(data.features().castTo(DataType.FLOAT), s.blankFeatures());
        INDArray y = data.labelMatrix(LabelEncoding.ONE_HOT).castTo(DataType.FLOAT);
        ModelOptions options = ModelOptions.defaults().withSeed(s.seed()).withUpdater(new Sgd(s.learningRate()))
                .withDataType(DataType.FLOAT);
        MultiLayerNetwork net = new MultiLayerNetwork(MlpModel.configuration((int) x.size(1), s.hidden(),
                data.numClasses(), Activation.RELU, options));
        net.init();
        RandomGenerator coins = PartyAudits.coins(s.noise(), s.seed());
        // User-level privacy of a node's whole data is priced replace-one: an "out" canary is mirrored, not absent.
        CanaryNode planted = new CanaryNode(CanaryClients.dirac(PartyAudits.zeroGradientCoordinates(net, x, s.canaries(),
                s.dataset(), s.pixelScaling()), s.clip(), NeighbouringRelation.REPLACE_ONE, coins), CANARY_NODE);
        DecentralizedRunBuilder builder = DecentralizedTrainer.builder().algorithm(s.algorithm()).model(net).graph(graph)
                .nodeData(PartyAudits.split(x, y, graph.vertexCount(), "--nodes")).unit(ProtectedUnit.USER)
                .clip(s.clip()).sampling(SamplingScheme.FULL_BATCH).learningRate(new LearningRate.Constant(s.learningRate()))
                .rounds(s.rounds()).target(s.epsilon(), s.delta()).noiseKind(s.noise()).seed(s.seed()).planted(planted);
        Map<String, Long> seeds = PartyAudits.seeds(s.seed(), s.dataset(), s.noise());
        double epsilon;
        double sigmaCdp;
        double sigmaCor;
        double kappa;
        double ledgerKappa;
        long rounds;
        double[] scores;
        MultiLayerNetwork trained;
        try (DecentralizedTrainer trainer = build(builder)) {
            sigmaCdp = trainer.config().sigmaCdp();
            sigmaCor = s.algorithm() == DecentralizedAlgorithm.DECOR ? trainer.config().sigmaCor() : 0.0;
            EavesdropperAudit eavesdropper = new EavesdropperAudit(trainer, planted);
            trainer.addObserver(eavesdropper);
            kappa = eavesdropper.kappa();
            ledgerKappa = trainer.privacy().kappaValue();
            console.printf(Locale.ROOT, "Auditing %s on %s through the %s (%s, %d nodes, %d canaries at node %d, S e_j on"
                            + " zero-gradient coordinates), %s noise: target epsilon %s at delta %s per user, sigma_cdp"
                            + " = %.4f, sigma_cor = %.4f, %d rounds%n", s.algorithm().cliName(), s.dataset(), s.observer(),
                    s.topology(), graph.vertexCount(), s.canaries(), CANARY_NODE, s.noise().cliName(), s.epsilon(),
                    s.delta(), sigmaCdp, sigmaCor, s.rounds());
            run.writeConfig(config(data, x, graph, trainer), Provenance.capture(seeds, arguments));
            trainer.runToEnd();
            epsilon = trainer.epsilon();
            rounds = eavesdropper.rounds();
            scores = eavesdropper.scores();
            trained = trainer.model();
        }
        double accuracy = DpSgdAudit.accuracy(trained, x, data.labels());
        GuessPlan plan = s.guessesIn() == null ? GuessPlan.sweep(s.canaries()) : GuessPlan.fixed(s.guessesIn(), 0);
        AuditResult audit = AuditResult.of(scores, planted.canaries().coins(), plan, s.delta(), s.confidence());
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("algo", s.algorithm().cliName());
        extra.put("observer", s.observer());
        extra.put("protected_unit", "user");
        extra.put("topology", s.topology());
        extra.put("nodes", graph.vertexCount());
        extra.put("canary_node", CANARY_NODE);
        extra.put("sigma_cdp", sigmaCdp);
        extra.put("sigma_cor", sigmaCor);
        extra.put("kappa_canary_node", kappa);
        extra.put("kappa_ledger", ledgerKappa);
        new AuditReport(s.algorithm().cliName() + " on " + s.dataset() + ", observed by the " + s.observer(), audit, epsilon,
                "canaries S e_j at node " + CANARY_NODE + " on zero-gradient coordinates, \"out\" meaning the share"
                        + " mirrored (replace one user's data), S = " + s.clip() + ", scored by their log-likelihood ratio"
                        + " over every message",
                String.format(Locale.ROOT, "%s of %d nodes with %d examples, %d rounds of full-batch gradients, sigma_cdp ="
                                + " %.4f, sigma_cor = %.4f, kappa at the canaries' node %.4g (ledger %.4g), %s noise",
                        s.topology(), graph.vertexCount(), data.size(), rounds, sigmaCdp, sigmaCor, kappa, ledgerKappa,
                        s.noise().cliName()),
                rounds, sigmaCdp / s.clip(), 1.0, accuracy, extra).write(run, planted.canaries().coins(), scores, console);
        return new DpSgdAudit.Outcome(epsilon, audit, run.path());
    }

    private DecentralizedTrainer build(DecentralizedRunBuilder builder) {
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("--epsilon", e.getMessage());
        }
    }

    private Map<String, Object> config(LabeledData data, INDArray x, Graph graph, DecentralizedTrainer trainer) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("algo", s.algorithm().cliName());
        c.put("observer", s.observer());
        c.put("dataset", s.dataset());
        c.put("examples", data.size());
        c.put("blank_features", s.blankFeatures());
        c.put("features", x.size(1));
        c.put("hidden", s.hidden());
        c.put("target_epsilon", s.epsilon());
        c.put("delta", s.delta());
        c.put("clip", s.clip());
        c.put("topology", s.topology());
        c.put("nodes", graph.vertexCount());
        c.put("rounds", s.rounds());
        c.put("learning_rate", s.learningRate());
        c.put("canaries", s.canaries());
        c.put("canary_node", CANARY_NODE);
        c.put("canary_norm", s.clip());
        c.put("canary_kind", "dirac");
        c.put("canary_out", "mirrored");
        if (s.dataset().equals("mnist")) {
            c.put("pixel_scaling", s.pixelScaling().name().toLowerCase(Locale.ROOT));
        }
        c.put("auditor", s.observer() + "-lr");
        c.put("confidence", s.confidence());
        c.put("guesses_in", s.guessesIn() == null ? "sweep" : s.guessesIn());
        c.put("noise", s.noise().cliName());
        c.put("seed", s.seed());
        c.put("resolved", trainer.resolved());
        return c;
    }
}
