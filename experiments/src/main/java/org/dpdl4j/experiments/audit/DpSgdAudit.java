package org.dpdl4j.experiments.audit;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.audit.AuditCanaries;
import org.dpdl4j.audit.AuditResult;
import org.dpdl4j.audit.DiracCanaries;
import org.dpdl4j.audit.ExpectedDataGradient;
import org.dpdl4j.audit.InputCanaries;
import org.dpdl4j.audit.GradientCanaries;
import org.dpdl4j.audit.GuessPlan;
import org.dpdl4j.audit.LikelihoodRatioAuditor;
import org.dpdl4j.audit.WhiteBoxAuditor;
import org.dpdl4j.audit.ZeroGradientCoordinates;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.models.MlpModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * {@code dpdl4j audit}: trains an MLP with central DP-SGD at a target epsilon, with m white-box gradient canaries
 * planted (each included with probability 1/2 by a coin, sampled with the data, its vector of norm C added to the
 * clipped sum when sampled), scores every canary from the released gradients, and turns the guesses into an epsilon
 * lower bound ({@link AuditResult}). Writes {@code canaries.csv} (coins and scores, for re-scoring), {@code audit.json},
 * {@code summary.md} and {@code config.json}, and ends with the lines {@code epsilon_lower=} and {@code epsilon=}.
 */
public final class DpSgdAudit {
    /** The data sets an audit reads by name. */
    public static final List<String> DATASETS = List.of("synthetic", "mnist", "a9a", "covtype-20k");
    /** The auditors: the plain white-box score, and the one that subtracts the data's expected gradient. */
    public static final String CENTRED = "white-box-centred";
    /** The auditor of input canaries, which sees the final model only. */
    public static final String BLACK_BOX = "black-box";
    /** The white-box auditor that scores each canary by its log-likelihood ratio over every step. */
    public static final String LIKELIHOOD_RATIO = "white-box-lr";
    /** Every auditor's name. */
    public static final List<String> AUDITORS = List.of("white-box", CENTRED, LIKELIHOOD_RATIO, BLACK_BOX);
    /** Gradient canaries in random directions. */
    public static final String RANDOM = "random";
    /** Gradient canaries on one zero-gradient coordinate each. */
    public static final String DIRAC = "dirac";
    /** The kinds of white-box gradient canaries. */
    public static final List<String> CANARY_KINDS = List.of(RANDOM, DIRAC);
    /** Examples of the generated data set when {@code --examples} is not given. */
    static final int SYNTHETIC_EXAMPLES = 5000;
    /** Features of the generated data set. */
    static final int SYNTHETIC_FEATURES = 50;

    /**
     * What to audit.
     *
     * @param dataset      a name of {@link #DATASETS}
     * @param examples     the first so many training examples, or 0 for all (synthetic: how many to generate)
     * @param hidden       the MLP's hidden layer sizes
     * @param epsilon      the target epsilon the noise is calibrated to
     * @param delta        delta
     * @param clip         the per-example clip C (also the canaries' norm)
     * @param batchSize    the expected batch size
     * @param epochs       passes over the data (the canaries included)
     * @param learningRate SGD's learning rate
     * @param canaries     m
     * @param auditor      white-box (the sum over steps of the released gradient's inner product with each canary) or
     *                     white-box-centred (the same after subtracting the data's expected clipped gradient at each
     *                     step, which the adversary DP protects against may know; one pass over the data per step) or
     *                     white-box-lr (each canary's log-likelihood ratio of inclusion over every step) or
     *                     black-box (input canaries: held-out examples with a wrong label, scored by the final model)
     * @param canaryKind   of the white-box canaries: random (random directions) or dirac (C e_j on a coordinate where
     *                     every training example's gradient is zero)
     * @param pixelScaling how MNIST's pixels become features (standardized; unit keeps the blank border pixels at 0)
     * @param confidence   of the lower bound
     * @param guessesIn    a fixed number of "in" guesses, or null for the default sweep
     * @param noise        secure (noise, sampling and coins from secure sources) or seeded (repeatable, not secure)
     * @param seed         seed of the initialisation, the canaries' directions and, for seeded noise, every stream
     * @param data         the data directory
     * @param out          the output directory, or null for a new one under runs/
     */
    public record Settings(String dataset, int examples, List<Integer> hidden, double epsilon, double delta, double clip,
                           int batchSize, double epochs, double learningRate, int canaries, String auditor,
                           String canaryKind, PixelScaling pixelScaling, double confidence, Integer guessesIn, NoiseKind noise, long seed, DataDirectory data, Path out) {
    }

    /** What an audit run found: the accountant's epsilon of the run and the audit. */
    public record Outcome(double epsilon, AuditResult audit, Path directory) {
    }

    private final Settings s;

    public DpSgdAudit(Settings settings) {
        this.s = settings;
    }

    /**
     * Checks the settings, claims the output directory, trains, audits and writes the files.
     *
     * @throws InvalidOptionException naming the option that does not fit, and the fix
     */
    public Outcome run(List<String> arguments, PrintWriter console) throws IOException {
        check();
        try (RunDirectory run = RunDirectory.of(s.out(), "dpdl4j audit", "audit-dp-sgd-" + s.dataset())) {
            return run(run, arguments, console);
        }
    }

    private void check() {
        if (!AUDITORS.contains(s.auditor())) {
            throw new InvalidOptionException("--auditor", "--auditor " + s.auditor() + ": unknown auditor; use one of "
                    + String.join(", ", AUDITORS));
        }
        if (!CANARY_KINDS.contains(s.canaryKind())) {
            throw new InvalidOptionException("--canary", "--canary " + s.canaryKind() + ": unknown canary kind; use one of "
                    + String.join(", ", CANARY_KINDS));
        }
        if (s.auditor().equals(BLACK_BOX) && s.canaryKind().equals(DIRAC)) {
            throw new InvalidOptionException("--canary", "--canary dirac plants gradient canaries, which the black-box"
                    + " auditor does not see (its canaries are mislabelled examples); use a white-box auditor or drop"
                    + " --canary");
        }
        AuditSettingsCheck.requireCommon(s.dataset(), s.canaries(), s.guessesIn());
        if (s.hidden().isEmpty()) {
            throw new InvalidOptionException("--hidden", "--hidden: give at least one hidden layer size, e.g. 128");
        }
    }

    private Outcome run(RunDirectory run, List<String> arguments, PrintWriter console) throws IOException {
        boolean blackBox = s.auditor().equals(BLACK_BOX);
        AuditData loaded = AuditData.load(s.dataset(), s.examples(), s.canaries(), blackBox, s.seed(), s.data(),
                s.pixelScaling());
        LabeledData data = loaded.train();
        INDArray x = data.features().castTo(DataType.FLOAT);
        INDArray y = data.labelMatrix(LabelEncoding.ONE_HOT);
        ModelOptions options = ModelOptions.defaults().withSeed(s.seed()).withUpdater(new Sgd(s.learningRate()))
                .withDataType(DataType.FLOAT);
        MultiLayerNetwork net = new MultiLayerNetwork(MlpModel.configuration(data.numFeatures(), s.hidden(),
                data.numClasses(), Activation.RELU, options));
        net.init();
        boolean seeded = !s.noise().isSecure();
        RandomGenerator coins = seeded ? new SplittableRandom(s.seed() + 3) : new SecureRandom();
        AuditCanaries canaries = null;
        InputCanaries inputs = null;
        INDArray trainX = x;
        INDArray trainY = y;
        if (blackBox) {
            // The wrong labels are the auditor's to know: seeded in either mode; the coins are what must be secret.
            inputs = InputCanaries.mislabel(loaded.pool().features().castTo(DataType.FLOAT),
                    loaded.pool().labelMatrix(LabelEncoding.ONE_HOT), new SplittableRandom(s.seed() + 5), coins);
            trainX = inputs.withIncludedFeatures(x);
            trainY = inputs.withIncludedLabels(y);
        } else if (s.canaryKind().equals(DIRAC)) {
            canaries = DiracCanaries.on(zeroGradientCoordinates(net, x), net.numParams(), s.clip(), DataType.FLOAT, coins);
        } else {
            refuseOversizedCanaries(net.numParams());
            canaries = GradientCanaries.draw(s.canaries(), net.numParams(), s.clip(), DataType.FLOAT, s.seed() + 2, coins);
        }
        DpSgdConfig config;
        try {
            config = DpSgdConfig.forTarget(s.clip(), s.epsilon(), s.delta(), s.batchSize(), s.epochs());
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("--epsilon", e.getMessage());
        }
        PrivateTrainer.Builder builder = PrivateTrainer.builder(net, config).data(trainX, trainY).device(ComputeDevice.CPU);
        if (canaries != null) {
            builder.planted(canaries);
        }
        if (seeded) {
            builder.noise(SeededNoiseSource.forKey(new NoiseKey(s.seed(), "audit", 0, 0)))
                    .sampling(new SplittableRandom(s.seed() + 4));
        }
        Map<String, Long> seeds = new LinkedHashMap<>();
        seeds.put("model", s.seed());
        if (s.dataset().equals("synthetic")) {
            seeds.put("data", s.seed() + 1);
        }
        if (blackBox || s.canaryKind().equals(RANDOM)) {
            seeds.put(blackBox ? "canary_labels" : "canary_directions", s.seed() + (blackBox ? 5 : 2));
        }
        if (seeded) {
            seeds.put("coins", s.seed() + 3);
            seeds.put("sampling", s.seed() + 4);
            seeds.put("noise", s.seed());
        }
        double epsilon;
        long steps;
        double z;
        double q;
        WhiteBoxAuditor auditor = null;
        LikelihoodRatioAuditor ratio = null;
        try (PrivateTrainer trainer = builder.build()) {
            if (s.auditor().equals(LIKELIHOOD_RATIO)) {
                ratio = new LikelihoodRatioAuditor(canaries, trainer.sampler().samplingRate());
                trainer.addObserver(ratio);
            } else if (!blackBox) {
                auditor = s.auditor().equals(CENTRED) ? new WhiteBoxAuditor(canaries, new ExpectedDataGradient(net, x, y,
                        s.clip(), trainer.sampler().samplingRate(), trainer.sampler().expectedBatchSize()))
                        : new WhiteBoxAuditor(canaries);
                trainer.addObserver(auditor);
            }
            console.printf(Locale.ROOT, "Auditing DP-SGD on %s (%d examples + %d included canaries of %d, %s), %s"
                            + " noise: target epsilon %s at delta %s, z = %.4f, q = %.5f, %d steps%n", s.dataset(),
                    data.size(), blackBox ? inputs.count() : canaries.count(), s.canaries(),
                    blackBox ? "mislabelled held-out examples" : s.canaryKind().equals(DIRAC)
                            ? "C e_j on zero-gradient coordinates" : "gradients of norm C", s.noise().cliName(), s.epsilon(),
                    s.delta(), trainer.noiseMultiplier(), trainer.sampler().samplingRate(), trainer.plannedSteps());
            run.writeConfig(config(data, trainer), Provenance.capture(seeds, arguments));
            trainer.fit();
            epsilon = trainer.epsilon();
            steps = trainer.steps();
            z = trainer.noiseMultiplier();
            q = trainer.sampler().samplingRate();
        }
        double accuracy = accuracy(net, x, data.labels());
        GuessPlan plan = s.guessesIn() == null ? GuessPlan.sweep(s.canaries()) : GuessPlan.fixed(s.guessesIn(), 0);
        double[] scores = blackBox ? inputs.scores(net) : ratio != null ? ratio.scores() : auditor.scores();
        boolean[] coinsDrawn = blackBox ? inputs.coins() : canaries.coins();
        AuditResult audit = AuditResult.of(scores, coinsDrawn, plan, s.delta(), s.confidence());
        new AuditReport("DP-SGD on " + s.dataset(), audit, epsilon, canaryWords(), String.format(Locale.ROOT,
                "%d examples, %d steps, q = %.5f, z = %.4f, %s noise", data.size(), steps, q, z, s.noise().cliName()), steps,
                z, q, accuracy, Map.of()).write(run, coinsDrawn, scores, console);
        return new Outcome(epsilon, audit, run.path());
    }

    /**
     * The first m of the network's coordinates where every training example's gradient is zero, or the refusal that
     * says how many there are.
     */
    private int[] zeroGradientCoordinates(MultiLayerNetwork net, INDArray features) {
        try {
            return ZeroGradientCoordinates.find(net, features).first(s.canaries());
        } catch (IllegalArgumentException e) {
            String hint = s.dataset().equals("mnist") && s.pixelScaling() != PixelScaling.UNIT_INTERVAL
                    ? " (standardized pixels are never 0; with --pixel-scaling unit MNIST's blank border pixels are)" : "";
            throw new InvalidOptionException("--canaries", "--canary dirac: " + e.getMessage() + hint);
        }
    }

    /**
     * The canaries are one [m, p] float array beside the network: refuse one that would take more than half of what
     * ND4J may allocate, with what fits.
     */
    private void refuseOversizedCanaries(long parameters) {
        long bytes = (long) s.canaries() * parameters * Float.BYTES;
        long limit = org.bytedeco.javacpp.Pointer.maxBytes() / 2;
        if (bytes > limit) {
            long fits = Math.max(1, limit / (parameters * Float.BYTES));
            throw new InvalidOptionException("--canaries", String.format(Locale.ROOT, "--canaries %d on a network of %,d"
                            + " parameters needs %,d MB for the canaries' vectors, more than half of the %,d MB ND4J may"
                            + " use; use at most %d canaries, a smaller --hidden, or more memory through"
                            + " DPDL4J_JAVA_OPTS=\"-Dorg.bytedeco.javacpp.maxbytes=...\"", s.canaries(), parameters,
                    bytes >> 20, org.bytedeco.javacpp.Pointer.maxBytes() >> 20, fits));
        }
    }

    /**
     * Audits the coins and scores of an earlier run's {@code canaries.csv} again, without training.
     *
     * @param guessesIn a fixed number of "in" guesses, or null for the default sweep
     */
    public static AuditResult rescore(Path canariesCsv, double delta, double confidence, Integer guessesIn)
            throws IOException {
        CanaryFile file = CanaryFile.read(canariesCsv);
        int m = file.coins().length;
        if (guessesIn != null && guessesIn > m) {
            throw new InvalidOptionException("--guesses", "--guesses " + guessesIn + " exceeds the " + m
                    + " canaries of " + canariesCsv);
        }
        GuessPlan plan = guessesIn == null ? GuessPlan.sweep(m) : GuessPlan.fixed(guessesIn, 0);
        return AuditResult.of(file.scores(), file.coins(), plan, delta, confidence);
    }

    static double accuracy(MultiLayerNetwork net, INDArray x, int[] labels) {
        int[] predicted = net.output(x).argMax(1).toIntVector();
        long right = 0;
        for (int i = 0; i < labels.length; i++) {
            right += predicted[i] == labels[i] ? 1 : 0;
        }
        return (double) right / labels.length;
    }

    private Map<String, Object> config(LabeledData data, PrivateTrainer trainer) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("algo", "dp-sgd");
        c.put("dataset", s.dataset());
        c.put("examples", data.size());
        c.put("hidden", s.hidden());
        c.put("target_epsilon", s.epsilon());
        c.put("delta", s.delta());
        c.put("clip", s.clip());
        c.put("batch_size", s.batchSize());
        c.put("epochs", s.epochs());
        c.put("learning_rate", s.learningRate());
        c.put("canaries", s.canaries());
        c.put("canary_norm", s.clip());
        if (!s.auditor().equals(BLACK_BOX)) {
            c.put("canary_kind", s.canaryKind());
        }
        if (s.dataset().equals("mnist")) {
            c.put("pixel_scaling", s.pixelScaling().name().toLowerCase(Locale.ROOT));
        }
        c.put("auditor", s.auditor());
        c.put("confidence", s.confidence());
        c.put("guesses_in", s.guessesIn() == null ? "sweep" : s.guessesIn());
        c.put("noise", s.noise().cliName());
        c.put("seed", s.seed());
        c.put("resolved", trainer.resolved());
        return c;
    }

    private String canaryWords() {
        return s.auditor().equals(BLACK_BOX) ? "mislabelled held-out examples, scored by the final model"
                : (s.canaryKind().equals(DIRAC) ? "Dirac gradients C e_j on zero-gradient coordinates, C = "
                : "gradients of norm C = ") + s.clip() + ", scored by " + s.auditor();
    }
}
