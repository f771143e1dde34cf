package org.dpdl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.CaseScorer;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.ImageOutcome;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.image.ImageGrid;
import org.dpdl4j.attacks.inversion.AnalyticInversion;
import org.dpdl4j.attacks.inversion.DlgAttack;
import org.dpdl4j.attacks.inversion.DlgConfig;
import org.dpdl4j.attacks.inversion.IdlgAttack;
import org.dpdl4j.attacks.inversion.InversionAttack;
import org.dpdl4j.attacks.matching.MatchingEngine;
import org.dpdl4j.attacks.observe.AttackScenario;
import org.dpdl4j.attacks.observe.AttackScenarios;
import org.dpdl4j.attacks.observe.ScenarioRequest;
import org.dpdl4j.attacks.optim.AdamConfig;
import org.dpdl4j.attacks.optim.LbfgsConfig;
import org.dpdl4j.attacks.optim.OptimizerConfig;
import org.dpdl4j.experiments.attack.ResultCsv;
import org.dpdl4j.experiments.attack.ResultJson;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.Architecture;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.Sgd;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dpdl4j attack}: gradient-inversion attacks on one observed release of a training run. The release is
 * produced by a simulated protocol step ({@code --algo}) as seen by an adversary ({@code --observer}); the
 * attack reconstructs the client's examples, writes {@code grid.png}, {@code result.json}, {@code trace.csv}
 * and {@code config.json} (with {@code --count N}: one grid, result and trace per release, named by the first
 * training index, and {@code summary.csv}), and ends with the lines {@code mse=}, {@code psnr=}, {@code ssim=},
 * {@code label_correct=} (means over the releases, and whether every label was recovered).
 */
@Command(name = "attack", mixinStandardHelpOptions = true,
        description = "Gradient-inversion attacks (DLG, iDLG, analytic) on what an adversary observes in training.",
        subcommands = {AttackCommand.Dlg.class, AttackCommand.Idlg.class, AttackCommand.Analytic.class,
                AttackReportCommand.class, AttackCompareCommand.class})
public final class AttackCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "Missing subcommand: use 'dlg', 'idlg', 'analytic', 'report' or 'compare'");
    }

    /** Where the release comes from and what the attacked model is. */
    static final class CaseOptions {
        @Option(names = "--algo", defaultValue = "fedavg", paramLabel = "NAME",
                description = "Protocol whose message is attacked: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).",
                completionCandidates = AlgorithmNames.class)
        String algo;

        @Option(names = "--observer", paramLabel = "POSITION",
                description = "Adversary position (fedavg: server; central: gradient). Default: the protocol's first.")
        String observer;

        @Option(names = "--model", defaultValue = "mlp", paramLabel = "MODEL",
                description = "Attacked model: mlp (784-128-10), softmax, logistic (odd vs even digits), dlg-lenet"
                        + " (default ${DEFAULT-VALUE}).")
        String model;

        @Option(names = "--hidden-activation", defaultValue = "relu", paramLabel = "ACT",
                description = "Hidden activation of the mlp: relu, sigmoid or tanh (default ${DEFAULT-VALUE}).")
        String hiddenActivation;

        @Option(names = "--dataset", defaultValue = "mnist", paramLabel = "NAME",
                description = "Data set: mnist (default ${DEFAULT-VALUE}).")
        String dataset;

        @Option(converter = Converters.NonNegativeInt.class, names = "--target-index", required = true, paramLabel = "I",
                description = "Index of the (first) attacked example in the MNIST training set.")
        int targetIndex;

        @Option(converter = Converters.PositiveInt.class, names = "--count", defaultValue = "1", paramLabel = "N",
                description = "Attack N releases in turn, of the batches starting at I, I+B, ..., I+(N-1)B; writes"
                        + " one result per batch and summary.csv; the final lines then give the means"
                        + " (default ${DEFAULT-VALUE}).")
        int count;

        @Option(converter = Converters.PositiveInt.class, names = "--batch-size", defaultValue = "1", paramLabel = "B",
                description = "Examples in the attacked batch: training examples I .. I+B-1 (default ${DEFAULT-VALUE}).")
        int batchSize;

        @Option(names = "--pixel-scaling", defaultValue = "unit", paramLabel = "SCALING",
                description = "Model inputs: unit (pixels in [0, 1]) or standardized ((p - 0.1307) / 0.3081)"
                        + " (default ${DEFAULT-VALUE}).")
        String pixelScaling;

        @Option(names = "--model-precision", defaultValue = "float", paramLabel = "TYPE",
                description = "Data type of the attacked model and its messages: float or double (default"
                        + " ${DEFAULT-VALUE}).")
        String modelPrecision;

        @Option(converter = Converters.Positive.class, names = "--learning-rate", defaultValue = "0.1", paramLabel = "ETA",
                description = "SGD learning rate of training and of the client's local step (default ${DEFAULT-VALUE}).")
        double learningRate;

        @Option(converter = Converters.NonNegativeInt.class, names = "--train-steps", defaultValue = "0", paramLabel = "T",
                description = "SGD steps (batches of 64 training examples) before the attacked release; the release"
                        + " happens at round T (default ${DEFAULT-VALUE}: the initial model).")
        int trainSteps;

        @Option(converter = Converters.NonNegative.class, names = "--noise-std", defaultValue = "0", paramLabel = "S",
                description = "Std of Gaussian noise added to the observed message, in its own units (default"
                        + " ${DEFAULT-VALUE}).")
        double noiseStd;

        @Option(converter = Converters.NonNegative.class, names = "--noise-relative", paramLabel = "R",
                description = "Instead of --noise-std: noise std = R x the RMS of the noise-free gradient of each"
                        + " attacked batch (converted to the message's units).")
        Double noiseRelative;

        @Option(names = "--fit-scale", description = "The attacker does not know the scale of the message (e.g. the"
                + " learning rate) and fits it.")
        boolean fitScale;

        @Option(names = "--seed", defaultValue = "1234", paramLabel = "S",
                description = "Seed of the model initialisation, training order, noise and dummy start (default"
                        + " ${DEFAULT-VALUE}).")
        long seed;

        @Mixin
        DataDirOption data;

        @Option(names = "--out", paramLabel = "DIR",
                description = "Output directory (default: runs/<time>-attack-<attack>-<algo>-<model>).")
        Path out;
    }

    /** Settings of the optimisation attacks. */
    static final class OptimisationOptions {
        @Option(converter = Converters.NonNegativeInt.class, names = "--iterations", defaultValue = "300", paramLabel = "N",
                description = "Outer optimiser steps (default ${DEFAULT-VALUE}).")
        int iterations;

        @Option(converter = Converters.PositiveInt.class, names = "--snapshot-every", defaultValue = "10", paramLabel = "K",
                description = "Record the reconstruction every K steps (default ${DEFAULT-VALUE}).")
        int snapshotEvery;

        @Option(names = "--optimizer", defaultValue = "lbfgs", paramLabel = "NAME",
                description = "lbfgs (PyTorch defaults, lr 1, history 100, 20 evaluations per step) or adam"
                        + " (default ${DEFAULT-VALUE}).")
        String optimizer;

        @Option(converter = Converters.Positive.class, names = "--adam-lr", defaultValue = "0.1", paramLabel = "LR",
                description = "Adam learning rate (default ${DEFAULT-VALUE}).")
        double adamLearningRate;

        @Option(names = "--precision", defaultValue = "float", paramLabel = "TYPE",
                description = "Precision of the matching loss: float or double (default ${DEFAULT-VALUE}).")
        String precision;

        @Option(names = "--engine", defaultValue = "auto", paramLabel = "ENGINE",
                description = "Matching loss: auto (closed form for dense models, SameDiff otherwise), closed-form or"
                        + " samediff (default ${DEFAULT-VALUE}).")
        String engine;
    }

    /** Candidates for --algo in the help. */
    static final class AlgorithmNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return AttackScenarios.names().iterator();
        }
    }

    /** The common flow: build the case, run the attack, write and print the result. */
    abstract static class AttackRun implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        CaseOptions options;

        /** The attack to run. */
        abstract InversionAttack attack();

        /** Short name for the output directory. */
        abstract String name();

        ParameterException bad(String message) {
            return new ParameterException(spec.commandLine(), message);
        }

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            AttackScenario scenario;
            try {
                scenario = AttackScenarios.of(options.algo);
            } catch (IllegalArgumentException e) {
                throw bad("--algo: " + e.getMessage());
            }
            String observer = options.observer == null ? scenario.observers().get(0) : options.observer;
            if (!scenario.observers().contains(observer)) {
                throw bad("--observer: unknown observer '" + observer + "' for " + scenario.algorithm()
                        + "; supported: " + String.join(", ", scenario.observers()));
            }
            validate();
            ModelKind kind = modelKind();
            PixelScaling scaling = pixelScaling();
            InversionAttack attack = attack();

            DataDirectory dir;
            try {
                dir = options.data.resolve();
            } catch (IllegalArgumentException e) {
                throw bad("--data-dir: " + e.getMessage());
            }
            TrainTest mnist = Datasets.mnist(dir, scaling);
            LabeledData train = mnist.train();
            long end = (long) options.targetIndex + (long) options.count * options.batchSize;
            if (options.targetIndex < 0 || end > train.size()) {
                throw bad("--target-index " + options.targetIndex + " with --batch-size " + options.batchSize
                        + " and --count " + options.count + " reaches past the " + train.size()
                        + " MNIST training examples; use 0.." + (train.size() - (long) options.count * options.batchSize));
            }
            boolean binary = kind == ModelKind.LOGISTIC;
            MultiLayerNetwork net = buildModel(kind, binary);
            trainBeforeRelease(net, train, binary);
            double accuracy = accuracy(net, mnist.test(), binary);

            RunDirectory run = RunDirectory.create(options.out, "attack-" + name() + "-" + scenario.algorithm() + "-"
                    + kind.cliName());
            Map<String, Long> seeds = new LinkedHashMap<>();
            seeds.put("model", options.seed);
            seeds.put("noise", options.seed + 1);
            seeds.put("training_order", options.seed + 2);
            seeds.put("dummy", options.seed);
            run.writeConfig(config(scenario, observer, kind, scaling),
                    Provenance.capture(seeds, spec.commandLine().getParseResult().originalArgs()));
            List<AttackResult> results = new ArrayList<>();
            for (int k = 0; k < options.count; k++) {
                int first = options.targetIndex + k * options.batchSize;
                AttackCase attackCase = attackCase(scenario, observer, net, train, first, binary, scaling, kind,
                        accuracy);
                AttackResult result;
                try {
                    result = attack.attack(attackCase);
                } catch (IllegalArgumentException e) {
                    throw bad(name() + " cannot attack this case: " + e.getMessage());
                }
                results.add(result);
                String suffix = options.count == 1 ? "" : "-" + first;
                ResultJson.write(result, run.file("result" + suffix + ".json"));
                ResultCsv.writeSnapshots(result, run.file("trace" + suffix + ".csv"));
                ImageGrid.defaults().writePng(result, run.file("grid" + suffix + ".png"));
                printCase(out, result, first);
            }
            if (options.count > 1) {
                ResultCsv.writeSummary(results, run.file("summary.csv"));
            }
            printSummary(out, results, run.path());
            return 0;
        }

        private AttackCase attackCase(AttackScenario scenario, String observer, MultiLayerNetwork net,
                                      LabeledData train, int first, boolean binary, PixelScaling scaling,
                                      ModelKind kind, double accuracy) {
            int[] rows = new int[options.batchSize];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = first + i;
            }
            LabeledData batch = train.subset(rows);
            GroundTruth truth = new GroundTruth(batch.features().castTo(net.params().dataType()),
                    labels(batch, binary), ImageShape.MNIST,
                    InputNormalization.of(scaling));
            Map<String, String> details = new LinkedHashMap<>();
            details.put("model", kind.cliName() + (kind == ModelKind.MLP ? "-" + options.hiddenActivation : ""));
            details.put("dataset", "mnist-train");
            details.put("target_index", Integer.toString(first));
            details.put("pixel_scaling", scaling.name().toLowerCase(Locale.ROOT));
            details.put("seed", Long.toString(options.seed));
            long noiseSeed = options.seed + 1 + first;
            AttackCase attackCase;
            try {
                double noiseStd = options.noiseStd;
                if (options.noiseRelative != null) {
                    AttackCase clean = scenario.build(new ScenarioRequest(net, truth, observer, options.learningRate,
                            0.0, noiseSeed, options.trainSteps, accuracy, details));
                    noiseStd = options.noiseRelative * new CaseScorer(clean).noiseLevel().gradientRms()
                            * Math.abs(clean.scale().factor());
                }
                attackCase = scenario.build(new ScenarioRequest(net, truth, observer, options.learningRate, noiseStd,
                        noiseSeed, options.trainSteps, accuracy, details));
            } catch (IllegalArgumentException e) {
                throw bad(e.getMessage());
            }
            return options.fitScale ? attackCase.withUnknownScale() : attackCase;
        }

        void validate() {
            if (!"mnist".equals(options.dataset.toLowerCase(Locale.ROOT))) {
                throw bad("--dataset: unknown data set '" + options.dataset + "' for attacks; supported: mnist");
            }
            if (options.batchSize < 1) {
                throw bad("--batch-size must be >= 1, got " + options.batchSize);
            }
            if (!(options.learningRate > 0) || Double.isInfinite(options.learningRate)) {
                throw bad("--learning-rate must be a positive finite number, got " + options.learningRate);
            }
            if (options.trainSteps < 0) {
                throw bad("--train-steps must be >= 0, got " + options.trainSteps);
            }
            if (!(options.noiseStd >= 0) || Double.isInfinite(options.noiseStd)) {
                throw bad("--noise-std must be a finite number >= 0, got " + options.noiseStd);
            }
            if (options.noiseRelative != null) {
                if (options.noiseStd != 0) {
                    throw bad("give either --noise-std or --noise-relative, not both");
                }
                if (!(options.noiseRelative >= 0) || Double.isInfinite(options.noiseRelative)) {
                    throw bad("--noise-relative must be a finite number >= 0, got " + options.noiseRelative);
                }
            }
            if (options.count < 1) {
                throw bad("--count must be >= 1, got " + options.count);
            }
        }

        private ModelKind modelKind() {
            ModelKind kind;
            try {
                kind = ModelKind.fromCliName(options.model);
            } catch (IllegalArgumentException e) {
                throw bad("--model: " + e.getMessage());
            }
            if (kind == ModelKind.LEAST_SQUARES) {
                throw bad("--model: least-squares has no classification loss to attack; use mlp, softmax, logistic"
                        + " or dlg-lenet");
            }
            return kind;
        }

        private PixelScaling pixelScaling() {
            return switch (options.pixelScaling.toLowerCase(Locale.ROOT)) {
                case "unit" -> PixelScaling.UNIT_INTERVAL;
                case "standardized", "standardised" -> PixelScaling.STANDARDIZED;
                default -> throw bad("--pixel-scaling: unknown value '" + options.pixelScaling
                        + "'; use unit or standardized");
            };
        }

        private Activation hiddenActivation() {
            return switch (options.hiddenActivation.toLowerCase(Locale.ROOT)) {
                case "relu" -> Activation.RELU;
                case "sigmoid" -> Activation.SIGMOID;
                case "tanh" -> Activation.TANH;
                default -> throw bad("--hidden-activation: unknown value '" + options.hiddenActivation
                        + "'; use relu, sigmoid or tanh");
            };
        }

        private MultiLayerNetwork buildModel(ModelKind kind, boolean binary) {
            DataType dataType = switch (options.modelPrecision.toLowerCase(Locale.ROOT)) {
                case "float" -> DataType.FLOAT;
                case "double" -> DataType.DOUBLE;
                default -> throw bad("--model-precision: unknown value '" + options.modelPrecision
                        + "'; use float or double");
            };
            ModelOptions modelOptions = ModelOptions.defaults().withSeed(options.seed)
                    .withUpdater(new Sgd(options.learningRate)).withDataType(dataType);
            Architecture architecture = new Architecture(List.of(128), hiddenActivation(), true, ImageShape.MNIST);
            return kind.network(ImageShape.MNIST.flatSize(), binary ? 1 : 10, modelOptions, architecture);
        }

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
            int batch = 64;
            Random random = new Random(options.seed + 2);
            long outputs = binary ? 1 : 10;
            for (int step = 0; step < options.trainSteps; step++) {
                int[] rows = new int[batch];
                for (int i = 0; i < batch; i++) {
                    rows[i] = random.nextInt(train.size());
                }
                LabeledData b = train.subset(rows);
                DataType type = net.params().dataType();
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

        private Map<String, Object> config(AttackScenario scenario, String observer, ModelKind kind,
                                           PixelScaling scaling) {
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("attack", name());
            config.put("algo", scenario.algorithm());
            config.put("observer", observer);
            config.put("model", kind.cliName());
            config.put("hidden_activation", options.hiddenActivation);
            config.put("dataset", options.dataset);
            config.put("target_index", options.targetIndex);
            config.put("batch_size", options.batchSize);
            config.put("pixel_scaling", scaling.name().toLowerCase(Locale.ROOT));
            config.put("model_precision", options.modelPrecision);
            config.put("learning_rate", options.learningRate);
            config.put("train_steps", options.trainSteps);
            config.put("noise_std", options.noiseStd);
            config.put("noise_relative", options.noiseRelative);
            config.put("count", options.count);
            config.put("fit_scale", options.fitScale);
            config.put("seed", options.seed);
            config.putAll(attackSettings());
            return config;
        }

        /** Settings specific to the attack, recorded in config.json. */
        Map<String, Object> attackSettings() {
            return Map.of();
        }

        private void printCase(PrintWriter out, AttackResult r, int first) {
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

    /** The optimisation attacks share their settings. */
    abstract static class OptimisationRun extends AttackRun {
        @Mixin
        OptimisationOptions optimisation;

        DlgConfig dlgConfig() {
            if (optimisation.iterations < 0) {
                throw bad("--iterations must be >= 0, got " + optimisation.iterations);
            }
            if (optimisation.snapshotEvery < 1) {
                throw bad("--snapshot-every must be >= 1, got " + optimisation.snapshotEvery);
            }
            OptimizerConfig optimizer = switch (optimisation.optimizer.toLowerCase(Locale.ROOT)) {
                case "lbfgs" -> LbfgsConfig.pytorchDefaults();
                case "adam" -> {
                    try {
                        yield AdamConfig.withLearningRate(optimisation.adamLearningRate);
                    } catch (IllegalArgumentException e) {
                        throw bad("--adam-lr: " + e.getMessage());
                    }
                }
                default -> throw bad("--optimizer: unknown value '" + optimisation.optimizer + "'; use lbfgs or adam");
            };
            DataType precision = switch (optimisation.precision.toLowerCase(Locale.ROOT)) {
                case "float" -> DataType.FLOAT;
                case "double" -> DataType.DOUBLE;
                default -> throw bad("--precision: unknown value '" + optimisation.precision + "'; use float or double");
            };
            MatchingEngine engine = switch (optimisation.engine.toLowerCase(Locale.ROOT)) {
                case "auto" -> MatchingEngine.AUTO;
                case "closed-form" -> MatchingEngine.CLOSED_FORM;
                case "samediff" -> MatchingEngine.SAMEDIFF;
                default -> throw bad("--engine: unknown value '" + optimisation.engine
                        + "'; use auto, closed-form or samediff");
            };
            return new DlgConfig(optimisation.iterations, optimisation.snapshotEvery, optimizer, options.seed, engine,
                    precision);
        }

        @Override
        Map<String, Object> attackSettings() {
            Map<String, Object> settings = new LinkedHashMap<>();
            settings.put("iterations", optimisation.iterations);
            settings.put("snapshot_every", optimisation.snapshotEvery);
            settings.put("optimizer", optimisation.optimizer);
            settings.put("adam_lr", optimisation.adamLearningRate);
            settings.put("precision", optimisation.precision);
            settings.put("engine", optimisation.engine);
            return settings;
        }
    }

    @Command(name = "dlg", mixinStandardHelpOptions = true,
            description = {"Deep Leakage from Gradients: optimise a dummy input and soft label to match the observed"
                    + " gradient (L-BFGS, 300 steps).", "Ends with mse=, psnr=, ssim= and label_correct= lines."})
    static final class Dlg extends OptimisationRun {
        @Override
        InversionAttack attack() {
            return new DlgAttack(dlgConfig());
        }

        @Override
        String name() {
            return "dlg";
        }
    }

    @Command(name = "idlg", mixinStandardHelpOptions = true,
            description = {"Improved DLG: read the label from the output-layer gradient, then optimise the dummy input"
                    + " only (batch size 1).", "Ends with mse=, psnr=, ssim= and label_correct= lines."})
    static final class Idlg extends OptimisationRun {
        @Override
        InversionAttack attack() {
            return new IdlgAttack(dlgConfig());
        }

        @Override
        String name() {
            return "idlg";
        }
    }

    @Command(name = "analytic", mixinStandardHelpOptions = true,
            description = {"Exact inversion x = dW1[:, r] / db1[r] for models whose first layer is dense with a bias"
                    + " (batch size 1).", "Ends with mse=, psnr=, ssim= and label_correct= lines."})
    static final class Analytic extends AttackRun {
        @Override
        InversionAttack attack() {
            return new AnalyticInversion();
        }

        @Override
        String name() {
            return "analytic";
        }
    }
}
