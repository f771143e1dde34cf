package org.dpdl4j.experiments.reproduce;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.DirectoryLock;
import org.dpdl4j.experiments.report.Figure;
import org.dpdl4j.experiments.report.MetricsCsv;
import org.dpdl4j.experiments.report.Panel;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.ProgressBar;
import org.dpdl4j.experiments.report.Series;
import org.dpdl4j.experiments.report.TerminalTable;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.Architecture;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.experiments.workload.Evaluation;
import org.dpdl4j.experiments.workload.Workload;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.optim.ParameterAverage;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Nesterovs;
import org.nd4j.linalg.learning.config.Sgd;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code dpdl4j reproduce dp-sgd}: central DP-SGD accuracy against epsilon, tuned honestly - every
 * hyperparameter setting of a small grid is trained on 90% of the training set and scored on the held-out
 * 10%; the best setting per epsilon is then retrained on the whole training set with several seeds and
 * scored on the test set, once. (Tuning itself is not covered by the privacy guarantee; the summary says so.)
 */
public final class DpSgdReproduction {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DpSgdReproduction.class);
    /**
     * What to reproduce.
     *
     * @param dataset  mnist or a9a
     * @param model    mlp or cnn (mnist only)
     * @param epsilons target epsilons, or null for the default grid
     * @param delta    delta
     * @param seeds    seeds of the final runs
     * @param quick    one grid point and one seed
     * @param wideGrid MNIST's large-batch settings too
     * @param resume   reuse the finished runs an earlier run left in the output directory's CSV files
     * @param data     the data directory
     * @param out      output directory, or null for the default
     * @param chosenFrom an earlier run's directory whose chosen setting per epsilon (its {@code results.csv}) is
     *                 retrained without tuning again, or null to tune
     * @param accountant the pricing that calibrates and prices every private run ({@link AccountantFactory#NAMES})
     */
    public record Settings(String dataset, String model, List<Double> epsilons, double delta, int seeds, boolean quick, boolean wideGrid,
                           boolean resume, DataDirectory data, Path out, Path chosenFrom, String accountant) {
        public Settings {
            Objects.requireNonNull(accountant, "accountant must not be null");
            AccountantFactory.named(accountant);   // refuses an unknown name, listing the known ones
        }

        /** Settings that tune, priced by the tightest valid bound. */
        public Settings(String dataset, String model, List<Double> epsilons, double delta, int seeds, boolean quick,
                        boolean wideGrid, boolean resume, DataDirectory data, Path out) {
            this(dataset, model, epsilons, delta, seeds, quick, wideGrid, resume, data, out, null, AccountantFactory.TIGHTEST);
        }
    }

    private final String dataset;
    private final boolean cnn;
    private final List<Double> epsilons;
    private final double delta;
    private final int seeds;
    private final boolean quick;
    private final boolean wideGrid;
    private final boolean resume;
    private final DataDirectory dataDirectory;
    private final Path out;
    private final Path chosenFrom;
    private final String accountant;

    public DpSgdReproduction(Settings s) {
        this.dataset = s.dataset();
        this.cnn = switch (s.model() == null ? "mlp" : s.model()) {
            case "mlp" -> false;
            case "cnn" -> true;
            default -> throw new IllegalArgumentException("unknown --model '" + s.model() + "'; use mlp or cnn");
        };
        this.epsilons = s.epsilons();
        this.delta = s.delta();
        this.seeds = s.seeds();
        this.quick = s.quick();
        this.wideGrid = s.wideGrid();
        this.resume = s.resume();
        this.dataDirectory = s.data();
        this.out = s.out();
        this.chosenFrom = s.chosenFrom();
        this.accountant = s.accountant();
    }

    private static final List<String> TUNING_COLUMNS = List.of("epsilon", "activation", "batch", "epochs", "lr",
            "momentum", "clip", "ema", "noise_multiplier", "validation_accuracy");

    /** One point of the tuning grid. */
    record Setting(String activation, int batch, int epochs, double lr, double momentum, double clip, double ema) {
        Setting(String activation, int batch, int epochs, double lr, double momentum, double clip) {
            this(activation, batch, epochs, lr, momentum, clip, 0);
        }

        String describe() {
            return String.format(Locale.ROOT, "%s batch=%d epochs=%d lr=%s%s C=%s%s", activation, batch, epochs, lr,
                    momentum > 0 ? " momentum=" + momentum : "", clip, ema > 0 ? " ema=" + ema : "");
        }

        /** The same training run: settings that differ only in the average they evaluate share one trajectory. */
        Setting trajectory() {
            return new Setting(activation, batch, epochs, lr, momentum, clip, 0);
        }
    }

    /** Tunes, trains the chosen settings with several seeds, and writes the results, the summary and the figure. */
    public int run(PrintWriter pw) throws IOException {
        boolean mnist = switch (dataset) {
            case "mnist" -> true;
            case "a9a" -> false;
            default -> throw new IllegalArgumentException("unknown --dataset '" + dataset + "'; use mnist or a9a");
        };
        DataDirectory dir = dataDirectory;
        if (cnn && !mnist) {
            throw new IllegalArgumentException("--model cnn takes images; use it with --dataset mnist");
        }
        if (cnn && wideGrid) {
            throw new IllegalArgumentException("--wide-grid applies to the MLP; drop it with --model cnn");
        }
        Path outDir = out != null ? out : Path.of("results", "central-dp-sgd", dataset + (cnn ? "-cnn" : "") + (quick ? "-quick" : ""));
        if (resume && Stream.of("tuning.csv", "results.csv").map(outDir::resolve)
                .noneMatch(f -> Files.isRegularFile(f) || Files.isRegularFile(EarlierRows.kept(f)))) {
            throw new IllegalArgumentException("--resume: " + outDir + " holds no earlier tuning.csv or results.csv of this"
                    + " reproduction, so there is nothing to resume; drop --resume to start afresh, or give the --out of the"
                    + " run to continue");
        }
        List<Double> grid = epsilons != null ? epsilons : cnn ? List.of(1.0, 2.0, 3.0, 8.0)
                : mnist ? List.of(1.0, 2.0, 4.0, 8.0) : List.of(1.0);
        if (wideGrid && !mnist) {
            throw new IllegalArgumentException("--wide-grid applies to --dataset mnist only");
        }
        List<Setting> settings = quick ? grid(mnist, cnn, false).subList(0, 1) : grid(mnist, cnn, wideGrid);
        int nSeeds = quick ? 1 : seeds;
        Map<Double, Setting> earlierChoice = chosenFrom == null ? null : earlierChoice(grid, settings, outDir);
        TrainTest data = mnist ? Datasets.mnist(dir, PixelScaling.STANDARDIZED) : Datasets.a9a(dir);
        LabelEncoding enc = mnist ? LabelEncoding.ONE_HOT : LabelEncoding.BINARY;
        TrainTest tuning = data.train().split(0.9, 20261122L);
        try (RunDirectory claim = RunDirectory.claim(outDir, "dpdl4j reproduce dp-sgd", "dpdl4j reproduce dp-sgd --dataset "
                + dataset + (cnn ? " --model cnn" : ""), RunDirectory.Reuse.SAME_COMMAND)) {
            // The seeds fix the initialisation and the tuning split; noise and batches come from the trainer's
            // secure default, so a rerun agrees with the committed numbers only statistically.
            pw.println(NoiseNotice.of(NoiseKind.SECURE, null));
            return grid(pw, mnist, data, enc, tuning, grid, settings, earlierChoice, nSeeds, outDir);
        }
    }

    /**
     * The setting an earlier run chose for each epsilon of {@code grid}: the one its final runs (the rows of its
     * {@code results.csv} at that epsilon) trained, which must be a point of this grid.
     */
    private Map<Double, Setting> earlierChoice(List<Double> grid, List<Setting> settings, Path outDir) {
        if (quick) {
            throw new IllegalArgumentException("--chosen-from retrains the settings an earlier run chose; drop --quick");
        }
        if (chosenFrom.toAbsolutePath().normalize().equals(outDir.toAbsolutePath().normalize())) {
            throw new IllegalArgumentException("--chosen-from " + chosenFrom + " is the output directory; give the new"
                    + " results another --out");
        }
        Path file = chosenFrom.resolve("results.csv");
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--chosen-from: " + file + " does not exist; give the directory of an"
                    + " earlier `reproduce dp-sgd` run (it holds results.csv)");
        }
        EarlierRows earlier = EarlierRows.of(file);
        Map<Double, Setting> chosen = new LinkedHashMap<>();
        for (double eps : grid) {
            List<String> row = earlier.find(Map.of("epsilon", eps)).orElseThrow(() -> new IllegalArgumentException(
                    "--chosen-from: " + file + " has no final run at epsilon " + eps + "; give --epsilons that it has"));
            String described = earlier.value(row, "setting");
            chosen.put(eps, settings.stream().filter(st -> st.describe().equals(described)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("--chosen-from: the setting '" + described + "' chosen"
                            + " in " + file + " at epsilon " + eps + " is not a point of this grid (--dataset " + dataset
                            + (cnn ? " --model cnn" : "") + (wideGrid ? " --wide-grid" : "") + "); give the same options"
                            + " as that run")));
        }
        return chosen;
    }

    private int grid(PrintWriter pw, boolean mnist, TrainTest data, LabelEncoding enc, TrainTest tuning, List<Double> grid,
                     List<Setting> settings, Map<Double, Setting> earlierChoice, int nSeeds, Path outDir) throws IOException {
        // A resumed run reads what the earlier one finished, then writes both files afresh in the usual order,
        // reusing those rows, so its files are those of an uninterrupted run; the earlier rows stay on disk (kept
        // beside the files) until the new files are whole.
        // Tuning files written before settings could evaluate a parameter average have no ema column: their rows
        // evaluated the last iterate.
        List<String> resultFiles = List.of("tuning.csv", "results.csv");
        if (!resume) {
            // A fresh run replaces the earlier rows: they are set aside (X.csv.replaced, unread) before the directory's
            // accounting is claimed, so that they never decide it, and deleted only once this run's files are whole.
            for (String f : resultFiles) {
                EarlierRows.setAside(outDir.resolve(f), pw);
                EarlierRows.discardKept(outDir.resolve(f));
            }
            DirectoryAccounting.forget(outDir);
        }
        // Every run here is calibrated and priced by one accounting; a directory never mixes two.
        DirectoryAccounting.claim(outDir, accountant, Map.of("delta", Double.toString(delta)), resultFiles, "pass --accountant %s",
                "leave out --resume to start afresh");
        EarlierRows earlierTuning = resume ? EarlierRows.keep(outDir.resolve("tuning.csv"), Map.of("ema", "0.0"))
                : EarlierRows.none();
        EarlierRows earlierResults = resume ? EarlierRows.keep(outDir.resolve("results.csv"), Map.of()) : EarlierRows.none();
        long total = (earlierChoice != null ? 0 : (long) grid.size() * settings.size()) + (long) grid.size() * nSeeds + nSeeds;
        List<double[]> finals = new ArrayList<>();
        List<Setting> chosen = new ArrayList<>();
        double[] nonPrivate = new double[nSeeds];
        try (MetricsCsv tuneCsv = earlierChoice != null ? null : MetricsCsv.create(outDir.resolve("tuning.csv"),
                TUNING_COLUMNS);
             MetricsCsv resCsv = MetricsCsv.create(outDir.resolve("results.csv"),
                     List.of("epsilon", "seed", "setting", "noise_multiplier", "epsilon_spent", "steps", "test_accuracy"));
             ProgressBar bar = ProgressBar.builder("reproduce dp-sgd " + dataset, total).unit("runs").build()) {
            for (double eps : grid) {
                Setting best = null;
                double bestAcc = -1;
                // Outcomes of settings whose trajectory was trained for an earlier setting of the grid.
                Map<Setting, Outcome> sameRun = new HashMap<>();
                for (Setting s : earlierChoice != null ? List.<Setting>of() : settings) {
                    Optional<List<String>> done = earlierTuning.find(tuningKey(eps, s));
                    double accuracy;
                    if (done.isPresent()) {
                        tuneCsv.append(earlierTuning.inColumns(TUNING_COLUMNS, done.get()));
                        accuracy = Double.parseDouble(earlierTuning.value(done.get(), "validation_accuracy"));
                    } else {
                        if (!sameRun.containsKey(s)) {
                            // One run evaluates every average of its trajectory that the grid still needs.
                            List<Setting> wanted = settings.stream().filter(t -> t.trajectory().equals(s.trajectory())
                                    && earlierTuning.find(tuningKey(eps, t)).isEmpty()).toList();
                            sameRun.putAll(train(mnist, wanted, eps, tuning.train(), tuning.test(), enc, 1));
                        }
                        Outcome o = sameRun.get(s);
                        tuneCsv.append(eps, s.activation(), s.batch(), s.epochs(), s.lr(), s.momentum(), s.clip(), s.ema(),
                                o.noiseMultiplier(), o.accuracy());
                        accuracy = o.accuracy();
                    }
                    if (accuracy > bestAcc) {
                        bestAcc = accuracy;
                        best = s;
                    }
                    bar.step();
                    bar.field("eps", eps);
                    bar.field("val", accuracy);
                }
                if (earlierChoice != null) {
                    best = earlierChoice.get(eps);
                }
                chosen.add(best);
                double[] accs = new double[nSeeds];
                for (int seed = 1; seed <= nSeeds; seed++) {
                    Optional<List<String>> done = earlierResults.find(Map.of("epsilon", eps, "seed", seed,
                            "setting", best.describe()));
                    if (done.isPresent()) {
                        resCsv.append(done.get());
                        accs[seed - 1] = Double.parseDouble(earlierResults.value(done.get(), "test_accuracy"));
                    } else {
                        Outcome o = train(mnist, List.of(best), eps, data.train(), data.test(), enc, seed).get(best);
                        accs[seed - 1] = o.accuracy();
                        resCsv.append(eps, seed, best.describe(), o.noiseMultiplier(), o.epsilonSpent(), o.steps(), o.accuracy());
                    }
                    bar.step();
                    bar.field("test", accs[seed - 1]);
                }
                finals.add(accs);
            }
            for (int seed = 1; seed <= nSeeds; seed++) {
                Optional<List<String>> done = earlierResults.find(Map.of("epsilon", Double.POSITIVE_INFINITY,
                        "seed", seed, "setting", nonPrivateSetting(mnist)));
                if (done.isPresent()) {
                    resCsv.append(done.get());
                    nonPrivate[seed - 1] = Double.parseDouble(earlierResults.value(done.get(), "test_accuracy"));
                } else {
                    nonPrivate[seed - 1] = trainNonPrivate(mnist, data, enc, seed);
                    resCsv.append(Double.POSITIVE_INFINITY, seed, nonPrivateSetting(mnist),
                            Double.NaN, Double.NaN, Double.NaN, nonPrivate[seed - 1]);
                }
                bar.step();
            }
            bar.finish();
        }
        TerminalTable table = new TerminalTable("Central DP-SGD, " + dataset + " (delta = " + delta + ", " + nSeeds + " seeds)",
                "epsilon", "test accuracy (mean ± std)", "chosen setting");
        for (int i = 0; i < grid.size(); i++) {
            table.addRow(grid.get(i), meanStd(finals.get(i)), chosen.get(i).describe());
        }
        table.addRow("non-private", meanStd(nonPrivate), "SGD, same model");
        for (String f : resultFiles) {
            EarlierRows.discardKept(outDir.resolve(f));   // the files now hold every row again
            EarlierRows.discardSetAside(outDir.resolve(f));   // and a fresh run's rows replace the earlier ones for good
        }
        AtomicFiles.replace(outDir.resolve("summary.md"), markdown(table, earlierChoice != null ? List.of() : settings, chosen, mnist));
        writeFigure(outDir, grid, finals, nonPrivate);
        pw.println();
        pw.print(table.render());
        pw.println("Results: " + outDir.toAbsolutePath() + " (summary.md, results.csv, " + (earlierChoice != null ? "" : "tuning.csv, ")
                + "accuracy-vs-epsilon.png, "
                + DirectoryLock.LISTED + ")");
        pw.flush();
        return 0;
    }

    private String nonPrivateSetting(boolean mnist) {
        return cnn ? "non-private SGD momentum=0.9 lr=0.05 batch=256 epochs=3"
                : mnist ? "non-private SGD lr=0.1 batch=64 epochs=20" : "non-private SGD lr=0.1 batch=64 epochs=10";
    }

    /** The tuning grid: learning rate and clip over the batch/epoch budgets that work for DP-SGD. */
    private static List<Setting> grid(boolean mnist, boolean cnn, boolean wide) {
        List<Setting> g = new ArrayList<>();
        if (cnn) {
            // Tramèr & Boneh's budget for this CNN (batch 512, momentum 0.9, C = 0.1): the learning rate at half their
            // 40 epochs, and their 40 epochs at rate 1.
            for (double lr : new double[]{0.5, 1.0, 2.0, 4.0}) {
                g.add(new Setting("tanh", 512, 20, lr, 0.9, 0.1));
            }
            g.add(new Setting("tanh", 512, 40, 1.0, 0.9, 0.1));
            // The same number of steps (2,344) with larger batches: at a fixed epsilon the noise on the averaged
            // gradient, z / B, falls from 1.97e-3 (512) to 1.57e-3 (1024) and 1.43e-3 (2048).
            g.add(new Setting("tanh", 1024, 40, 1.0, 0.9, 0.1));
            g.add(new Setting("tanh", 2048, 80, 1.0, 0.9, 0.1));
            // The learning rate bracketed at the best budget: with less noise on the averaged gradient the best rate
            // may move from the one found at batch 512.
            g.add(new Setting("tanh", 2048, 80, 0.5, 0.9, 0.1));
            g.add(new Setting("tanh", 2048, 80, 2.0, 0.9, 0.1));
            // The best budget's iterates averaged (exponential moving averages over about 100 to 1,000 of its 2,320
            // steps): the noise of the last steps averages out, at no privacy cost (post-processing).
            for (double ema : new double[]{0.99, 0.995, 0.998, 0.999}) {
                g.add(new Setting("tanh", 2048, 80, 1.0, 0.9, 0.1, ema));
            }
        } else if (mnist) {
            for (String act : new String[]{"tanh"}) {
                for (int[] be : new int[][]{{512, 30}, {1024, 40}}) {
                    for (double lr : new double[]{0.5, 1.0}) {
                        g.add(new Setting(act, be[0], be[1], lr, 0.0, 1.0));
                    }
                }
            }
            g.add(new Setting("relu", 512, 30, 0.5, 0.0, 1.0));
            if (wide) {
                // Larger batches for more epochs: at a fixed epsilon the noise on the mean gradient, z C / B, falls
                // faster than the number of steps.
                for (double lr : new double[]{2.0, 4.0}) {
                    g.add(new Setting("relu", 2048, 60, lr, 0.0, 1.0));
                }
            }
        } else {
            for (int[] be : new int[][]{{256, 10}, {1024, 30}}) {
                for (double lr : new double[]{0.5, 2.0}) {
                    g.add(new Setting("identity", be[0], be[1], lr, 0.0, 0.5));
                }
            }
        }
        return g;
    }

    record Outcome(double accuracy, double noiseMultiplier, double epsilonSpent, long steps) {
    }

    private static Map<String, Object> tuningKey(double eps, Setting s) {
        return Map.of("epsilon", eps, "activation", s.activation(), "batch", s.batch(), "epochs", s.epochs(),
                "lr", s.lr(), "momentum", s.momentum(), "clip", s.clip(), "ema", s.ema());
    }

    /**
     * Trains the trajectory the settings share once and scores each setting's model: the last iterate, or the
     * parameter average it names (post-processing of the iterates, so every outcome spends the run's epsilon).
     */
    private Map<Setting, Outcome> train(boolean mnist, List<Setting> settings, double eps, LabeledData train,
                                        LabeledData test, LabelEncoding enc, long seed) {
        Setting s = settings.get(0).trajectory();
        MultiLayerNetwork net = model(mnist, cnn, s.activation(), seed,
                s.momentum() > 0 ? new Nesterovs(s.lr(), s.momentum()) : new Sgd(s.lr()));
        Map<Setting, ParameterAverage> averages = new LinkedHashMap<>();
        for (Setting t : settings) {
            if (!t.trajectory().equals(s)) {
                throw new IllegalArgumentException("settings " + s.describe() + " and " + t.describe() + " are different runs");
            }
            if (t.ema() > 0) {
                averages.put(t, ParameterAverage.exponential(t.ema()));
                net.addListeners(averages.get(t));
            }
        }
        INDArray x = train.features();
        INDArray y = train.labelMatrix(enc);
        try (PrivateTrainer trainer = PrivateTrainer.builder(net, DpSgdConfig.forTarget(s.clip(), eps, delta, s.batch(), s.epochs()))
                .data(x, y).accountant(AccountantFactory.named(accountant)).build()) {
            try {
                for (int e = 0; e < s.epochs(); e++) {
                    trainer.fitEpoch();
                }
            } catch (PrivacyBudgetExceededException stop) {
                // The planned steps fit the budget; the last partial epoch may not, and stopping there is correct.
            }
            if (!averages.isEmpty()) {
                LOG.info("{}: last iterate {} on the held-out data", s.describe(), accuracy(net, test, enc));
            }
            Map<Setting, Outcome> outcomes = new LinkedHashMap<>();
            for (Setting t : settings) {
                MultiLayerNetwork scored = t.ema() > 0 ? averages.get(t).copyOf(net) : net;
                outcomes.put(t, new Outcome(accuracy(scored, test, enc), trainer.noiseMultiplier(), trainer.epsilon(), trainer.steps()));
            }
            return outcomes;
        }
    }

    private double trainNonPrivate(boolean mnist, TrainTest data, LabelEncoding enc, long seed) {
        MultiLayerNetwork net = cnn ? model(true, true, "tanh", seed, new Nesterovs(0.05, 0.9))
                : model(mnist, false, mnist ? "relu" : "identity", seed, new Sgd(0.1));
        int batch = cnn ? 256 : 64;
        INDArray x = data.train().features();
        INDArray y = data.train().labelMatrix(enc);
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        int n = (int) x.size(0);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int e = 0; e < (cnn ? 3 : mnist ? 20 : 10); e++) {
            for (int i = n - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            for (int start = 0; start < n; start += batch) {
                int[] rows = java.util.Arrays.copyOfRange(order, start, Math.min(n, start + batch));
                net.fit(new DataSet(Nd4j.pullRows(x, 1, rows), Nd4j.pullRows(y, 1, rows)));
            }
        }
        return accuracy(net, data.test(), enc);
    }

    private static MultiLayerNetwork model(boolean mnist, boolean cnn, String activation, long seed,
                                           org.nd4j.linalg.learning.config.IUpdater updater) {
        ModelOptions options = ModelOptions.defaults().withSeed(seed).withUpdater(updater);
        if (cnn) {
            return ModelKind.CNN.network(784, 10, options);
        }
        if (!mnist) {
            return ModelKind.LOGISTIC.network(123, 1, options);
        }
        return ModelKind.MLP.network(784, 10, options,
                Architecture.defaults().withHiddenLayers(List.of(128), Activation.valueOf(activation.toUpperCase(Locale.ROOT))));
    }

    private static double accuracy(MultiLayerNetwork net, LabeledData test, LabelEncoding enc) {
        return Evaluation.of(net, new Workload.Split(test.features(), test.labelMatrix(enc)), true).accuracy();
    }

    private static String meanStd(double[] v) {
        double m = java.util.Arrays.stream(v).average().orElse(Double.NaN);
        double sd = v.length < 2 ? 0 : Math.sqrt(java.util.Arrays.stream(v).map(a -> (a - m) * (a - m)).sum() / (v.length - 1));
        return String.format(Locale.ROOT, "%.4f ± %.4f", m, sd);
    }

    private String markdown(TerminalTable table, List<Setting> settings, List<Setting> chosen, boolean mnist) {
        StringBuilder s = new StringBuilder("# Central DP-SGD: ").append(dataset).append(cnn ? " CNN" : "").append("\n\n");
        s.append("Generated by `dpdl4j reproduce dp-sgd --dataset ").append(dataset).append(cnn ? " --model cnn" : "")
                .append(epsilons != null ? " --epsilons " + epsilons.stream().map(e -> String.format(Locale.ROOT, "%s", e))
                        .collect(java.util.stream.Collectors.joining(",")) : "")
                .append(wideGrid ? " --wide-grid" : "").append(seeds != 3 ? " --seeds " + seeds : "")
                .append(quick ? " --quick" : "")
                .append(chosenFrom != null ? " --chosen-from " + chosenFrom : "")
                .append(accountant.equals(AccountantFactory.TIGHTEST) ? "" : " --accountant " + accountant)
                .append(out != null ? " --out " + out : "").append("`.\n\n");
        s.append("Model: ").append(cnn ? "the end-to-end tanh CNN of Papernot et al. and Tramèr & Boneh (conv 16 8x8 stride 2"
                + " same, max-pool 2x2 stride 1, conv 32 4x4 stride 2, max-pool 2x2 stride 1, dense 32, softmax; 26,010"
                + " parameters), softmax cross-entropy, inputs standardised" : mnist ? "MLP 784-128-10 (hidden activation from the grid), softmax cross-entropy, inputs standardised"
                : "logistic regression on the 123 a9a features").append(". Per-example clipping, Poisson sampling, noise from the secure source, ")
                .append("noise calibrated and every run priced by the ").append(accountant).append(" accounting (")
                .append(AccountantFactory.describe(accountant)).append("; the README's Privacy accounting section); every run's")
                .append(" epsilon is at or below its target at delta = ").append(delta).append(".\n\n");
        if (chosenFrom != null) {
            s.append("Tuning: not run here. The setting per epsilon is the one the earlier run in `").append(chosenFrom)
                    .append("` chose (its results.csv; its tuning.csv and summary say how and under which accounting), retrained")
                    .append(" on the full training set with the noise this accounting calibrates and scored once on the test set.")
                    .append(" The tuning runs are not covered by the privacy guarantee (as in most published DP-SGD results).\n\n");
        } else {
            s.append("Tuning: each grid point below was trained on a fixed 90% of the training set and scored on the other 10%; ")
                    .append("the best per epsilon was retrained on the full training set and scored once on the test set. The tuning")
                    .append(" runs themselves are not covered by the privacy guarantee (as in most published DP-SGD results).\n\n");
        }
        if (settings.stream().anyMatch(st -> st.ema() > 0) || chosen.stream().anyMatch(st -> st.ema() > 0)) {
            s.append("A setting with ema=β scores the exponential moving average of its iterates with decay β (the weight of")
                    .append(" a step's parameters falls by β per later step; `ParameterAverage`) instead of the last iterate:")
                    .append(" a function of the iterates, which the guarantee covers, so it spends the run's epsilon and no more.")
                    .append(" The settings that differ only in β share one training run.\n\n");
        }
        s.append(table.toMarkdown()).append('\n');
        if (!settings.isEmpty()) {
            s.append("\nGrid tried for every epsilon:\n\n");
            for (Setting st : settings) {
                s.append("- ").append(st.describe()).append('\n');
            }
        }
        return s.toString();
    }

    private static void writeFigure(Path dir, List<Double> grid, List<double[]> finals, double[] nonPrivate) {
        double[] x = grid.stream().mapToDouble(Double::doubleValue).toArray();
        double[] y = finals.stream().mapToDouble(v -> java.util.Arrays.stream(v).average().orElse(Double.NaN)).toArray();
        double np = java.util.Arrays.stream(nonPrivate).average().orElse(Double.NaN);
        double[] flat = new double[x.length];
        java.util.Arrays.fill(flat, np);
        Panel p = Panel.of("test accuracy against epsilon", "epsilon", "test accuracy",
                List.of(new Series("DP-SGD", x, y), new Series("non-private", x, flat))).withMarkers(true);
        Plots.write(dir.resolve("accuracy-vs-epsilon.png"), Figure.of(p));
    }
}
