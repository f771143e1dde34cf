package org.dpdl4j.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpdl4j.attacks.inversion.AnalyticInversion;
import org.dpdl4j.attacks.inversion.DlgAttack;
import org.dpdl4j.attacks.inversion.DlgConfig;
import org.dpdl4j.attacks.inversion.IdlgAttack;
import org.dpdl4j.attacks.inversion.InversionAttack;
import org.dpdl4j.attacks.inversion.InvertingGradientsAttack;
import org.dpdl4j.attacks.inversion.InvertingGradientsConfig;
import org.dpdl4j.attacks.inversion.StrongestAttack;
import org.dpdl4j.attacks.matching.MatchingEngine;
import org.dpdl4j.attacks.matching.MatchingLoss;
import org.dpdl4j.attacks.observe.AttackScenarios;
import org.dpdl4j.attacks.optim.AdamConfig;
import org.dpdl4j.attacks.optim.LbfgsConfig;
import org.dpdl4j.attacks.optim.OptimizerConfig;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.experiments.attack.ReleaseAttack;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.nd4j.linalg.api.buffer.DataType;
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
        description = "Gradient-inversion attacks (analytic, Inverting Gradients, DLG, iDLG) on what an adversary"
                + " observes in training.",
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
                description = "Attacked model: mlp (784-128-10), softmax, logistic (odd vs even digits), dlg-lenet, cnn (the"
                        + " private tanh CNN) (default ${DEFAULT-VALUE}).")
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
        @Option(converter = Converters.PositiveInt.class, names = "--iterations", defaultValue = "300", paramLabel = "N",
                description = "Outer optimiser steps (default ${DEFAULT-VALUE}).")
        int iterations;

        @Option(converter = Converters.PositiveInt.class, names = "--snapshot-every", defaultValue = "10", paramLabel = "K",
                description = "Record the reconstruction every K steps (default ${DEFAULT-VALUE}); Inverting Gradients, which"
                        + " takes about ten times the steps, every 10 K.")
        int snapshotEvery;

        @Option(names = "--optimizer", defaultValue = "lbfgs", paramLabel = "NAME",
                description = "lbfgs (PyTorch defaults, lr 1, history 100, 20 evaluations per step) or adam"
                        + " (default ${DEFAULT-VALUE}).")
        String optimizer;

        @Option(converter = Converters.Positive.class, names = "--adam-lr", defaultValue = "0.1", paramLabel = "LR",
                description = "Adam learning rate (default ${DEFAULT-VALUE}).")
        double adamLearningRate;

        @Option(names = "--precision", defaultValue = "float", paramLabel = "TYPE",
                description = "Precision of the matching loss with --engine closed-form or samediff: float or double"
                        + " (default ${DEFAULT-VALUE}); auto and java always compute in double.")
        String precision;

        @Option(names = "--engine", defaultValue = "auto", paramLabel = "ENGINE",
                description = "How the matching loss is differentiated: auto (= java), java (closed form in plain Java,"
                        + " double precision: dense, convolution and pooling layers), closed-form (ND4J, dense models)"
                        + " or samediff (default ${DEFAULT-VALUE}).")
        String engine;
    }

    /** Candidates for --algo in the help. */
    static final class AlgorithmNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return AttackScenarios.names().iterator();
        }
    }

    /** The common flow: the settings in the experiments' terms, then {@link ReleaseAttack}. */
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

        /** Whether the user gave the option on the command line (not its default). */
        boolean given(String option) {
            return spec.commandLine().getParseResult().hasMatchedOption(option);
        }

        /** Refuses each of the options the user gave that the attack does not read. */
        void refuseGiven(String why, String fix, String... options) {
            for (String option : options) {
                if (given(option)) {
                    throw bad(option + " has no effect " + why + "; " + fix);
                }
            }
        }

        @Override
        public Integer call() throws IOException {
            if (!"mnist".equals(options.dataset.toLowerCase(Locale.ROOT))) {
                throw bad("--dataset: unknown data set '" + options.dataset + "' for attacks; supported: mnist");
            }
            if (modelKind() != ModelKind.MLP && given("--hidden-activation")) {
                throw bad("--hidden-activation has no effect with --model " + options.model + " (only the mlp has a choice"
                        + " of hidden activation); drop it, or use --model mlp");
            }
            ReleaseAttack.Settings settings = new ReleaseAttack.Settings(options.algo, options.observer, modelKind(),
                    options.hiddenActivation, pixelScaling(), dataType("--model-precision", options.modelPrecision),
                    options.learningRate, options.targetIndex, options.count, options.batchSize, options.trainSteps,
                    options.noiseStd, options.noiseRelative, options.fitScale, options.seed);
            DataDirectory dir = options.data.resolve(spec.commandLine());
            try {
                new ReleaseAttack(settings, name(), attack(), attackSettings()).run(dir, options.out,
                        spec.commandLine().getParseResult().originalArgs(), spec.commandLine().getOut());
            } catch (InvalidOptionException e) {
                throw bad(e.getMessage());
            }
            return 0;
        }

        private ModelKind modelKind() {
            try {
                return ModelKind.fromCliName(options.model);
            } catch (IllegalArgumentException e) {
                throw bad("--model: " + e.getMessage());
            }
        }

        private PixelScaling pixelScaling() {
            return switch (options.pixelScaling.toLowerCase(Locale.ROOT)) {
                case "unit" -> PixelScaling.UNIT_INTERVAL;
                case "standardized", "standardised" -> PixelScaling.STANDARDIZED;
                default -> throw bad("--pixel-scaling: unknown value '" + options.pixelScaling
                        + "'; use unit or standardized");
            };
        }

        DataType dataType(String option, String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "float" -> DataType.FLOAT;
                case "double" -> DataType.DOUBLE;
                default -> throw bad(option + ": unknown value '" + value + "'; use float or double");
            };
        }

        /** Settings specific to the attack, recorded in config.json. */
        Map<String, Object> attackSettings() {
            return Map.of();
        }
    }

    /** The optimisation attacks share their settings. */
    abstract static class OptimisationRun extends AttackRun {
        @Mixin
        OptimisationOptions optimisation;

        DlgConfig dlgConfig() {
            if (!optimisation.optimizer.equalsIgnoreCase("adam")) {
                refuseGiven("with --optimizer " + optimisation.optimizer, "drop it, or add --optimizer adam", "--adam-lr");
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
            DataType precision = dataType("--precision", optimisation.precision);
            MatchingEngine engine = switch (optimisation.engine.toLowerCase(Locale.ROOT)) {
                case "auto" -> MatchingEngine.AUTO;
                case "java" -> MatchingEngine.JAVA;
                case "closed-form" -> MatchingEngine.CLOSED_FORM;
                case "samediff" -> MatchingEngine.SAMEDIFF;
                default -> throw bad("--engine: unknown value '" + optimisation.engine
                        + "'; use auto, java, closed-form or samediff");
            };
            if (engine == MatchingEngine.AUTO || engine == MatchingEngine.JAVA) {
                refuseGiven("with --engine " + optimisation.engine + " (it computes the matching loss in double, whatever"
                        + " --precision says)", "drop it, or use --engine closed-form or samediff", "--precision");
            }
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
            description = {"Gradient-matching attacks on the observed gradient. Without --method: the strongest that"
                    + " applies to the observed model, named in the output: the exact analytic inversion where the"
                    + " first layer is dense with a bias and the batch holds one example; on other networks' noise-free"
                    + " releases of one example iDLG, kept when it matches the release as closely as the true input;"
                    + " otherwise label recovery plus Inverting Gradients (cosine matching, total-variation prior,"
                    + " signed Adam, restarts).",
                "--method dlg (DLG: L-BFGS on the squared distance, soft labels optimised), idlg, ig or analytic picks"
                    + " one.", "Ends with mse=, psnr=, ssim= and label_correct= lines."})
    static final class Dlg extends OptimisationRun {
        @Option(names = "--method", defaultValue = "auto", paramLabel = "METHOD",
                description = "auto, dlg, idlg, ig or analytic (default ${DEFAULT-VALUE}: the strongest that applies).")
        String method;

        @Mixin
        IgOptions ig;

        @Override
        InversionAttack attack() {
            String m = method.toLowerCase(Locale.ROOT);
            if (m.equals("ig") || m.equals("analytic")) {
                refuseGiven("with --method " + m + " (they set DLG's and iDLG's optimisation)", "drop it, or use --method"
                        + " dlg, idlg or auto", "--iterations", "--optimizer", "--adam-lr", "--precision", "--engine");
            }
            if (m.equals("dlg") || m.equals("idlg") || m.equals("analytic")) {
                refuseGiven("with --method " + m + " (it sets Inverting Gradients)", "drop it, or use --method ig or auto",
                        "--ig-iterations", "--ig-lr", "--ig-tv", "--ig-restarts", "--ig-unsigned", "--ig-whole-gradient");
            }
            if (m.equals("analytic")) {
                refuseGiven("with --method analytic (the inversion is exact, with no iterations)", "drop it",
                        "--snapshot-every");
            }
            // The optimisation settings are checked whatever the method: a bad value is an error, never ignored.
            DlgConfig dlg = dlgConfig();
            return switch (m) {
                case "auto" -> new StrongestAttack(new AnalyticInversion(), new IdlgAttack(dlg),
                        new InvertingGradientsAttack(igConfig()));
                case "dlg" -> new DlgAttack(dlg);
                case "idlg" -> new IdlgAttack(dlg);
                case "ig" -> new InvertingGradientsAttack(igConfig());
                case "analytic" -> new AnalyticInversion();
                default -> throw bad("--method: unknown value '" + method + "'; use auto, dlg, idlg, ig or analytic");
            };
        }

        private InvertingGradientsConfig igConfig() {
            try {
                return new InvertingGradientsConfig(ig.iterations, ig.learningRate, ig.totalVariation, ig.restarts,
                        !ig.unsigned, options.seed, (int) Math.min(10L * optimisation.snapshotEvery, ig.iterations),
                        ig.wholeGradient ? MatchingLoss.COSINE_DISTANCE : MatchingLoss.LAYERWISE_COSINE_DISTANCE);
            } catch (IllegalArgumentException e) {
                throw bad("Inverting Gradients: " + e.getMessage());
            }
        }

        @Override
        String name() {
            return "dlg";
        }

        @Override
        Map<String, Object> attackSettings() {
            Map<String, Object> settings = new LinkedHashMap<>(super.attackSettings());
            settings.put("method", method);
            settings.put("ig_iterations", ig.iterations);
            settings.put("ig_learning_rate", ig.learningRate);
            settings.put("ig_total_variation", ig.totalVariation);
            settings.put("ig_restarts", ig.restarts);
            settings.put("ig_signed", !ig.unsigned);
            settings.put("ig_loss", ig.wholeGradient ? "cosine" : "layer-wise cosine");
            return settings;
        }
    }

    /** Settings of Inverting Gradients. */
    static final class IgOptions {
        @Option(converter = Converters.PositiveInt.class, names = "--ig-iterations", defaultValue = "2000", paramLabel = "N",
                description = "Inverting Gradients: Adam steps per start (default ${DEFAULT-VALUE}).")
        int iterations;

        @Option(converter = Converters.Positive.class, names = "--ig-lr", defaultValue = "0.1", paramLabel = "LR",
                description = "Inverting Gradients: initial Adam step, divided by 10 at 3/8, 5/8 and 7/8 of the steps"
                        + " (default ${DEFAULT-VALUE}).")
        double learningRate;

        @Option(converter = Converters.NonNegative.class, names = "--ig-tv", defaultValue = "0.03", paramLabel = "W",
                description = "Inverting Gradients: weight of the total-variation prior (default ${DEFAULT-VALUE}).")
        double totalVariation;

        @Option(converter = Converters.PositiveInt.class, names = "--ig-restarts", defaultValue = "2", paramLabel = "R",
                description = "Inverting Gradients: random starts; the lowest matching loss is kept (default"
                        + " ${DEFAULT-VALUE}).")
        int restarts;

        @Option(names = "--ig-unsigned", description = "Inverting Gradients: feed Adam the gradient itself instead of"
                + " its signs.")
        boolean unsigned;

        @Option(names = "--ig-whole-gradient", description = "Inverting Gradients: the cosine distance of the whole"
                + " gradient instead of the mean of the layers' cosine distances.")
        boolean wholeGradient;
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
