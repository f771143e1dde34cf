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
import org.dpdl4j.audit.AggregateObserverAudit;
import org.dpdl4j.audit.AuditResult;
import org.dpdl4j.audit.CanaryClients;
import org.dpdl4j.audit.GuessPlan;
import org.dpdl4j.audit.ServerObserverAudit;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.models.MlpModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.federated.FedAvgProtocol;
import org.dpdl4j.protocol.federated.FedAvgRunBuilder;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.RunListener;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * {@code dpdl4j audit --algo dp-fedavg-local|dp-fedavg-central --observer NAME}: one run of DP-FedAvg at a target
 * epsilon with m canary clients planted ({@link CanaryClients}: each "in" with probability 1/2, its update {@code S e_j}
 * on a coordinate no real client's update touches), audited by one of the observers the protocol declares: the server,
 * which sees every client's noisy message (local noise), or the observer of the released aggregate, which sees the
 * global model of every round (central noise). The accountant's epsilon is the run's ledger's, for one client.
 */
public final class FedAvgAudit {
    /** The protocols audited per observer. */
    public static final List<String> ALGORITHMS = List.of(FedAvgVariant.DP_LOCAL.cliName(), FedAvgVariant.DP_CENTRAL.cliName());

    /**
     * What to audit.
     *
     * @param variant        DP-FedAvg with local or central noise
     * @param observer       a name the protocol declares ({@link FedAvgProtocol#observers()})
     * @param dataset        a name of {@link DpSgdAudit#DATASETS}
     * @param examples       the first so many training examples, or 0 for all
     * @param blankFeatures  features appended that are 0 on every example, whose weights carry no client update
     * @param hidden         the MLP's hidden layer sizes
     * @param epsilon        the target epsilon the noise is calibrated to (for one client)
     * @param delta          delta
     * @param clip           S, the clip of each client's update (also the canaries' norm)
     * @param clients        the real clients (the examples split evenly in order)
     * @param rounds         T
     * @param localSteps     local SGD steps per round
     * @param localBatch     local mini-batch (the whole local data when larger)
     * @param learningRate   the clients' learning rate
     * @param clientRate     the fraction of clients per round (Poisson when below 1)
     * @param canaries       m
     * @param pixelScaling   how MNIST's pixels become features
     * @param confidence     of the lower bound
     * @param guessesIn      a fixed number of "in" guesses, or null for the default sweep
     * @param noise          secure or seeded (repeatable, not secure: coins, sampling and noise from the seed)
     * @param seed           seed of the initialisation and, for seeded noise, of every stream and the coins
     * @param data           the data directory (null for synthetic)
     * @param out            the output directory, or null for a new one under runs/
     */
    public record Settings(FedAvgVariant variant, String observer, String dataset, int examples, int blankFeatures,
                           List<Integer> hidden, double epsilon, double delta, double clip, int clients, long rounds,
                           int localSteps, int localBatch, double learningRate, double clientRate, int canaries,
                           PixelScaling pixelScaling, double confidence, Integer guessesIn, NoiseKind noise, long seed,
                           DataDirectory data, Path out) {
    }

    private final Settings s;

    public FedAvgAudit(Settings settings) {
        this.s = settings;
    }

    /** The observer names a protocol declares. */
    public static List<String> observers(FedAvgVariant variant) {
        return new FedAvgProtocol(variant).observers().stream().map(ObserverDeclaration::name).toList();
    }

    /**
     * Checks the settings, claims the output directory, trains with the canaries, audits and writes the files.
     *
     * @throws InvalidOptionException naming the option that does not fit, and the fix
     */
    public DpSgdAudit.Outcome run(List<String> arguments, PrintWriter console) throws IOException {
        check();
        String name = "audit-" + s.variant().cliName() + "-" + s.observer().replace(' ', '-') + "-" + s.dataset();
        try (RunDirectory run = RunDirectory.of(s.out(), "dpdl4j audit", name)) {
            return run(run, arguments, console);
        }
    }

    private void check() {
        if (!ALGORITHMS.contains(s.variant().cliName())) {
            throw new InvalidOptionException("--algo", "--algo " + s.variant().cliName() + " is not audited per observer; use"
                    + " one of " + String.join(", ", ALGORITHMS));
        }
        PartyAudits.requireDeclared(s.variant().cliName(), observers(s.variant()), s.observer());
        AuditSettingsCheck.requireCommon(s.dataset(), s.canaries(), s.guessesIn());
        PartyAudits.requireHidden(s.hidden());
    }

    private DpSgdAudit.Outcome run(RunDirectory run, List<String> arguments, PrintWriter console) throws IOException {
        LabeledData data = AuditData.load(s.dataset(), s.examples(), s.canaries(), false, s.seed(), s.data(),
                s.pixelScaling()).train();
        INDArray x = PartyAudits.withBlankFeatures(data.features().castTo(DataType.FLOAT), s.blankFeatures());
        INDArray y = data.labelMatrix(LabelEncoding.ONE_HOT).castTo(DataType.FLOAT);
        ModelOptions options = ModelOptions.defaults().withSeed(s.seed()).withUpdater(new Sgd(s.learningRate()))
                .withDataType(DataType.FLOAT);
        MultiLayerNetwork net = new MultiLayerNetwork(MlpModel.configuration((int) x.size(1), s.hidden(), data.numClasses(),
                Activation.RELU, options));
        net.init();
        RandomGenerator coins = PartyAudits.coins(s.noise(), s.seed());
        CanaryClients canaries = CanaryClients.dirac(PartyAudits.zeroGradientCoordinates(net, x,
                s.canaries(), s.dataset(), s.pixelScaling()), s.clip(), relation(), coins);
        FedAvgRunBuilder builder = FedAvgTrainer.builder().variant(s.variant()).model(net).clients(PartyAudits.split(x, y, s.clients(), "--clients"))
                .rounds(s.rounds()).localSteps(s.localSteps()).localBatch(s.localBatch())
                .localRate(new LearningRate.Constant(s.learningRate())).clientSampling(s.clientRate(), false).clip(s.clip())
                .target(s.epsilon(), s.delta()).noiseKind(s.noise()).seed(s.seed()).planted(canaries);
        Map<String, Long> seeds = PartyAudits.seeds(s.seed(), s.dataset(), s.noise());
        double epsilon;
        double z;
        double q;
        long rounds;
        double[] scores;
        MultiLayerNetwork trained;
        try (FedAvgTrainer trainer = build(builder)) {
            z = trainer.config().noiseMultiplier();
            RunListener observer;
            if (s.variant() == FedAvgVariant.DP_LOCAL) {
                observer = new ServerObserverAudit(trainer, canaries);
                q = s.clientRate();
            } else {
                AggregateObserverAudit aggregate = new AggregateObserverAudit(trainer, canaries);
                observer = aggregate;
                q = aggregate.participation();
            }
            trainer.addListener(observer);
            console.printf(Locale.ROOT, "Auditing %s on %s through the %s observer (%d clients + %d canary clients of %d,"
                            + " S e_j on zero-gradient coordinates), %s noise: target epsilon %s at delta %s per client,"
                            + " z = %.4f, client rate %s, %d rounds%n", s.variant().cliName(), s.dataset(), s.observer(),
                    s.clients(), canaries.count(), s.canaries(), s.noise().cliName(), s.epsilon(), s.delta(), z,
                    s.clientRate(), s.rounds());
            run.writeConfig(config(data, x, trainer), Provenance.capture(seeds, arguments));
            trainer.runToEnd();
            epsilon = trainer.epsilon();
            rounds = trainer.completedSteps();
            scores = observer instanceof ServerObserverAudit server ? server.scores() : ((AggregateObserverAudit) observer).scores();
            trained = trainer.model();
        }
        double accuracy = DpSgdAudit.accuracy(trained, x, data.labels());
        GuessPlan plan = s.guessesIn() == null ? GuessPlan.sweep(s.canaries()) : GuessPlan.fixed(s.guessesIn(), 0);
        AuditResult audit = AuditResult.of(scores, canaries.coins(), plan, s.delta(), s.confidence());
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("algo", s.variant().cliName());
        extra.put("observer", s.observer());
        extra.put("protected_unit", "client");
        extra.put("clients", s.clients());
        new AuditReport(s.variant().cliName() + " on " + s.dataset() + ", observed by the " + s.observer(), audit, epsilon,
                "canary clients with updates S e_j on zero-gradient coordinates, \"out\" meaning "
                        + (canaries.outMirrored() ? "the update mirrored (replace one client)" : "absent (add or remove one client)")
                        + ", S = " + s.clip() + ", scored by their log-likelihood ratio",
                String.format(Locale.ROOT, "%d clients with %d examples, %d rounds, client rate q = %.5f, z = %.4f, %s noise",
                        s.clients(), data.size(), rounds, q, z, s.noise().cliName()),
                rounds, z, q, accuracy, extra).write(run, canaries.coins(), scores, console);
        return new DpSgdAudit.Outcome(epsilon, audit, run.path());
    }

    private FedAvgTrainer build(FedAvgRunBuilder builder) {
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("--epsilon", e.getMessage());
        }
    }

    /** What "out" means for a canary: the neighbouring relation the run's ledger is priced under. */
    private NeighbouringRelation relation() {
        // Local noise is priced per message, replace-one; central noise under Poisson client sampling add/remove-one.
        return s.variant() == FedAvgVariant.DP_CENTRAL && s.clientRate() < 1 ? NeighbouringRelation.ADD_OR_REMOVE_ONE
                : NeighbouringRelation.REPLACE_ONE;
    }

    private Map<String, Object> config(LabeledData data, INDArray x, FedAvgTrainer trainer) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("algo", s.variant().cliName());
        c.put("observer", s.observer());
        c.put("dataset", s.dataset());
        c.put("examples", data.size());
        c.put("blank_features", s.blankFeatures());
        c.put("features", x.size(1));
        c.put("hidden", s.hidden());
        c.put("target_epsilon", s.epsilon());
        c.put("delta", s.delta());
        c.put("clip", s.clip());
        c.put("clients", s.clients());
        c.put("rounds", s.rounds());
        c.put("local_steps", s.localSteps());
        c.put("local_batch", s.localBatch());
        c.put("learning_rate", s.learningRate());
        c.put("client_rate", s.clientRate());
        c.put("canaries", s.canaries());
        c.put("canary_norm", s.clip());
        c.put("canary_kind", "dirac");
        c.put("canary_out", relation() == NeighbouringRelation.REPLACE_ONE ? "mirrored" : "absent");
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
