package org.dpdl4j.experiments.attack;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.CaseScorer;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.ImageOutcome;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.image.ImageGrid;
import org.dpdl4j.attacks.inversion.InversionAttack;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.dpdl4j.attacks.observe.AttackScenario;
import org.dpdl4j.attacks.observe.AttackScenarios;
import org.dpdl4j.attacks.observe.ScenarioRequest;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.models.Architecture;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * Attacks on single releases of a simulated protocol step, as the {@code attack dlg|idlg|analytic} commands run
 * them: an MNIST model is built and trained for some SGD steps, then each of {@code count} batches of training
 * examples is released as the chosen protocol's message, seen by the chosen observer, and attacked. Writes one grid,
 * result and trace per release (and {@code summary.csv} for several) and {@code config.json}.
 */
public final class ReleaseAttack {
    /** Examples per SGD step of the training before the release. */
    private static final int TRAINING_BATCH = 64;

    /**
     * What is attacked and how the release is made.
     *
     * @param algorithm     the simulated protocol ({@link AttackScenarios#names()})
     * @param observer      the adversary position, or null for the protocol's first
     * @param model         the attacked model family (not least squares)
     * @param hidden        the MLP's hidden activation, by name: relu, sigmoid or tanh
     * @param scaling       the model inputs
     * @param modelType     the data type of the model and its messages
     * @param learningRate  SGD learning rate of the training and the client's local step
     * @param targetIndex   the first attacked training example
     * @param count         releases attacked in turn, of the batches at targetIndex, targetIndex + batchSize, ...
     * @param batchSize     examples per attacked batch
     * @param trainSteps    SGD steps before the release
     * @param noiseStd      noise std in the message's units
     * @param noiseRelative null, or the noise std as a multiple of each batch's gradient RMS
     * @param fitScale      whether the attacker fits the message's unknown scale
     * @param seed          seed of the model, the training order, the noise and the dummies
     */
    public record Settings(String algorithm, String observer, ModelKind model, String hidden, PixelScaling scaling,
                           DataType modelType, double learningRate, int targetIndex, int count, int batchSize, int trainSteps,
                           double noiseStd, Double noiseRelative, boolean fitScale, long seed) {
    }

    private final Settings s;
    private final String attackName;
    private final InversionAttack attack;
    private final Map<String, Object> attackSettings;

    /**
     * @param attackName     the attack's name (dlg, idlg, analytic), for the output directory and config.json
     * @param attackSettings the attack's own settings, recorded in config.json
     */
    public ReleaseAttack(Settings settings, String attackName, InversionAttack attack, Map<String, Object> attackSettings) {
        this.s = settings;
        this.attackName = attackName;
        this.attack = attack;
        this.attackSettings = Map.copyOf(attackSettings);
    }

    /**
     * Trains, attacks every release, writes the run directory and prints a block per release and the means.
     *
     * @param out       the output directory, or null for a new one under runs/
     * @param arguments the command line, for the provenance
     * @throws InvalidOptionException naming the option whose value does not fit
     * @throws IOException            when MNIST cannot be read or the files cannot be written
     */
    public List<AttackResult> run(DataDirectory data, Path out, List<String> arguments, PrintWriter console) throws IOException {
        AttackScenario scenario;
        try {
            scenario = AttackScenarios.of(s.algorithm());
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("--algo", "--algo: " + e.getMessage());
        }
        String observer = s.observer() == null ? scenario.observers().get(0) : s.observer();
        if (!scenario.observers().contains(observer)) {
            throw new InvalidOptionException("--observer", "--observer: unknown observer '" + observer + "' for "
                    + scenario.algorithm() + "; supported: " + String.join(", ", scenario.observers()));
        }
        if (s.model() == ModelKind.LEAST_SQUARES) {
            throw new InvalidOptionException("--model", "--model: least-squares has no classification loss to attack; use"
                    + " mlp, softmax, logistic or dlg-lenet");
        }
        if (s.noiseRelative() != null && s.noiseStd() != 0) {
            throw new InvalidOptionException("--noise-relative", "give either --noise-std or --noise-relative, not both");
        }
        boolean binary = s.model() == ModelKind.LOGISTIC;
        MultiLayerNetwork net = network(binary, hiddenActivation());
        // What the attack cannot do follows from the model alone: refuse it before --out is claimed and the data read.
        attack.limitation(TargetNetwork.of(net), s.batchSize()).ifPresent(why -> {
            throw new InvalidOptionException("--model", attackName + " cannot attack --model " + s.model().cliName()
                    + (s.batchSize() == 1 ? "" : " with --batch-size " + s.batchSize()) + ": " + why);
        });
        // --out is claimed before the data is read, so a taken directory is refused at once
        try (RunDirectory run = RunDirectory.of(out, "dpdl4j attack " + attackName, "attack-" + attackName + "-"
                + scenario.algorithm() + "-" + s.model().cliName())) {
            return run(data, run, scenario, observer, net, binary, arguments, console);
        }
    }

    private List<AttackResult> run(DataDirectory data, RunDirectory run, AttackScenario scenario, String observer,
                                   MultiLayerNetwork net, boolean binary, List<String> arguments, PrintWriter console)
            throws IOException {
        TrainTest mnist = Datasets.mnist(data, s.scaling());
        LabeledData train = mnist.train();
        long end = (long) s.targetIndex() + (long) s.count() * s.batchSize();
        if (end > train.size()) {
            throw new InvalidOptionException("--target-index", "--target-index " + s.targetIndex() + " with --batch-size "
                    + s.batchSize() + " and --count " + s.count() + " reaches past the " + train.size() + " MNIST training"
                    + " examples; use 0.." + (train.size() - (long) s.count() * s.batchSize()));
        }
        trainBeforeRelease(net, train, binary);
        double accuracy = accuracy(net, mnist.test(), binary);

        Map<String, Long> seeds = new LinkedHashMap<>();
        seeds.put("model", s.seed());
        seeds.put("noise", s.seed() + 1);
        seeds.put("training_order", s.seed() + 2);
        seeds.put("dummy", s.seed());
        run.writeConfig(config(scenario, observer), Provenance.capture(seeds, arguments));
        List<AttackResult> results = new ArrayList<>();
        for (int k = 0; k < s.count(); k++) {
            int first = s.targetIndex() + k * s.batchSize();
            AttackResult result;
            try {
                result = attack.attack(attackCase(scenario, observer, net, train, first, binary, accuracy));
            } catch (InvalidOptionException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw new InvalidOptionException("--algo", attackName + " cannot attack this case: " + e.getMessage());
            }
            results.add(result);
            String suffix = s.count() == 1 ? "" : "-" + first;
            ResultJson.write(result, run.file("result" + suffix + ".json"));
            ResultCsv.writeSnapshots(result, run.file("trace" + suffix + ".csv"));
            AtomicFiles.replace(run.file("grid" + suffix + ".png"), f -> ImageGrid.defaults().writePng(result, f));
            printCase(console, result, first);
        }
        if (s.count() > 1) {
            ResultCsv.writeSummary(results, run.file("summary.csv"));
        }
        printSummary(console, results, run.path());
        return results;
    }

    private Activation hiddenActivation() {
        return switch (s.hidden().toLowerCase(Locale.ROOT)) {
            case "relu" -> Activation.RELU;
            case "sigmoid" -> Activation.SIGMOID;
            case "tanh" -> Activation.TANH;
            default -> throw new InvalidOptionException("--hidden-activation", "--hidden-activation: unknown value '"
                    + s.hidden() + "'; use relu, sigmoid or tanh");
        };
    }

    private MultiLayerNetwork network(boolean binary, Activation hidden) {
        ModelOptions options = ModelOptions.defaults().withSeed(s.seed()).withUpdater(new Sgd(s.learningRate()))
                .withDataType(s.modelType());
        Architecture architecture = new Architecture(List.of(128), hidden, true, ImageShape.MNIST);
        return s.model().network(ImageShape.MNIST.flatSize(), binary ? 1 : 10, options, architecture);
    }

    /** The labels, odd vs even digits for the logistic model. */
    private static int[] labels(LabeledData data, boolean binary) {
        int[] labels = data.labels();
        if (binary) {
            for (int i = 0; i < labels.length; i++) {
                labels[i] = labels[i] % 2;
            }
        }
        return labels;
    }

    private void trainBeforeRelease(MultiLayerNetwork net, LabeledData train, boolean binary) {
        Random random = new Random(s.seed() + 2);
        long outputs = binary ? 1 : 10;
        DataType type = net.params().dataType();
        for (int step = 0; step < s.trainSteps(); step++) {
            int[] rows = new int[TRAINING_BATCH];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = random.nextInt(train.size());
            }
            LabeledData b = train.subset(rows);
            net.fit(b.features().castTo(type), LabelRows.of(labels(b, binary), outputs, type));
        }
    }

    private static double accuracy(MultiLayerNetwork net, LabeledData test, boolean binary) {
        INDArray predictions = net.output(test.features().castTo(net.params().dataType()));
        int[] labels = labels(test, binary);
        int correct = 0;
        for (int i = 0; i < labels.length; i++) {
            int predicted = binary ? (predictions.getDouble(i, 0) >= 0.5 ? 1 : 0)
                    : predictions.getRow(i).argMax().getInt(0);
            correct += predicted == labels[i] ? 1 : 0;
        }
        return (double) correct / labels.length;
    }

    private AttackCase attackCase(AttackScenario scenario, String observer, MultiLayerNetwork net, LabeledData train,
                                  int first, boolean binary, double accuracy) {
        int[] rows = new int[s.batchSize()];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = first + i;
        }
        LabeledData batch = train.subset(rows);
        GroundTruth truth = new GroundTruth(batch.features().castTo(net.params().dataType()), labels(batch, binary),
                ImageShape.MNIST, InputNormalization.of(s.scaling()));
        Map<String, String> details = new LinkedHashMap<>();
        details.put("model", s.model().cliName() + (s.model() == ModelKind.MLP ? "-" + s.hidden() : ""));
        details.put("dataset", "mnist-train");
        details.put("target_index", Integer.toString(first));
        details.put("pixel_scaling", s.scaling().name().toLowerCase(Locale.ROOT));
        details.put("seed", Long.toString(s.seed()));
        long noiseSeed = s.seed() + 1 + first;
        double noiseStd = s.noiseStd();
        if (s.noiseRelative() != null) {
            AttackCase clean = scenario.build(new ScenarioRequest(net, truth, observer, s.learningRate(), 0.0, noiseSeed,
                    s.trainSteps(), accuracy, details));
            noiseStd = s.noiseRelative() * new CaseScorer(clean).noiseLevel().gradientRms() * Math.abs(clean.scale().factor());
        }
        AttackCase attackCase = scenario.build(new ScenarioRequest(net, truth, observer, s.learningRate(), noiseStd, noiseSeed,
                s.trainSteps(), accuracy, details));
        return s.fitScale() ? attackCase.withUnknownScale() : attackCase;
    }

    private Map<String, Object> config(AttackScenario scenario, String observer) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("attack", attackName);
        config.put("algo", scenario.algorithm());
        config.put("observer", observer);
        config.put("model", s.model().cliName());
        config.put("hidden_activation", s.hidden());
        config.put("dataset", "mnist");
        config.put("target_index", s.targetIndex());
        config.put("batch_size", s.batchSize());
        config.put("pixel_scaling", s.scaling().name().toLowerCase(Locale.ROOT));
        config.put("model_precision", s.modelType().name().toLowerCase(Locale.ROOT));
        config.put("learning_rate", s.learningRate());
        config.put("train_steps", s.trainSteps());
        config.put("noise_std", s.noiseStd());
        config.put("noise_relative", s.noiseRelative());
        config.put("count", s.count());
        config.put("fit_scale", s.fitScale());
        config.put("seed", s.seed());
        config.putAll(attackSettings);
        return config;
    }

    private static void printCase(PrintWriter out, AttackResult r, int first) {
        var p = r.provenance();
        out.printf(Locale.ROOT, "%s on %s/%s at round %d (model accuracy %.4f), %s%n", r.attack(), p.protocol(),
                p.observer(), p.round(), p.modelAccuracy(), r.method());
        out.printf(Locale.ROOT, "noise: std %.4g in the message, %.4g x gradient RMS; %s after %d steps,"
                        + " %d evaluations, %.2f s%n", r.noise().observedStd(), r.noise().ratio(),
                r.stopReason().name().toLowerCase(Locale.ROOT), r.timing().outerSteps(), r.timing().evaluations(),
                r.timing().seconds());
        for (ImageOutcome o : r.images()) {
            out.printf(Locale.ROOT, "example %d (training index %d): label %d, recovered %s, PSNR %.2f dB,"
                            + " SSIM %.4f%n", o.example(), first + o.example(), o.trueLabel(),
                    o.recoveredLabel() < 0 ? "none" : Integer.toString(o.recoveredLabel()), o.psnr(), o.ssim());
        }
    }

    /** The means over the releases, ending with the mse=, psnr=, ssim= and label_correct= lines. */
    private static void printSummary(PrintWriter out, List<AttackResult> results, Path directory) {
        int n = results.size();
        double mse = results.stream().mapToDouble(AttackResult::mse).average().orElse(Double.NaN);
        double psnr = results.stream().mapToDouble(AttackResult::psnr).average().orElse(Double.NaN);
        double ssim = results.stream().mapToDouble(AttackResult::ssim).average().orElse(Double.NaN);
        boolean labels = results.stream().allMatch(AttackResult::allLabelsCorrect);
        if (n > 1) {
            long recovered = results.stream().filter(r -> r.psnr() >= 30).count();
            double seconds = results.stream().mapToDouble(r -> r.timing().seconds()).sum();
            out.printf(Locale.ROOT, "%d releases: %d recovered (PSNR >= 30 dB), %.2f s per release on average;"
                    + " the lines below are means%n", n, recovered, seconds / n);
        }
        out.println("wrote " + directory + " (grid, result, trace" + (n > 1 ? " per release, summary.csv" : "")
                + ", config.json)");
        out.println("mse=" + mse);
        out.println("psnr=" + psnr);
        out.println("ssim=" + ssim);
        out.println("label_correct=" + labels);
        out.flush();
    }
}
