package org.dpdl4j.experiments.training;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.dpdl4j.data.catalog.CanonicalCheckResult;
import org.dpdl4j.data.catalog.CanonicalDataCheck;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.CsvTable;
import org.dpdl4j.experiments.report.MetricsCsv;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.ProgressBar;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.experiments.report.TerminalTable;
import org.dpdl4j.experiments.workload.Evaluation;
import org.dpdl4j.experiments.workload.Partitioners;
import org.dpdl4j.experiments.workload.Workload;
import org.dpdl4j.experiments.workload.WorkloadDefaults;
import org.dpdl4j.experiments.workload.WorkloadOptions;
import org.dpdl4j.experiments.workload.Workloads;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.EpochRun;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.ResumeReport;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingDivergedException;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.engine.RunEngines;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.options.SettingChange;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One training run of any registered protocol, with everything around it that a person or a machine reads: the data
 * check, the run directory (claimed before anything is written), the resolved configuration with provenance, the
 * metrics (one row per evaluation, flushed as written), a progress bar, checkpoints, the final model(s), the
 * privacy statement from the run's ledger, a summary table and a plot. A resumed run continues its ledger and its
 * metrics history. The budget stop and a diverged run end the session with their own {@link Outcome}.
 */
public final class TrainingSession {
    /**
     * Where the verdicts of the canonical data check are cached: this file in the directory named by the system
     * property {@value #HOME_PROPERTY}, by default {@code ~/.dpdl4j}.
     */
    public static final String VERIFIED_CACHE = "verified-files.txt";
    /** The system property naming the directory where dpdl4j keeps state between runs (tests point it elsewhere). */
    public static final String HOME_PROPERTY = "dpdl4j.home";

    private final Protocol protocol;
    private final RunSettings settings;
    private final List<String> arguments;
    private final PrintWriter out;

    /**
     * @param protocol  the protocol to train
     * @param settings  the workload, protocol and session options as given (defaults are added here)
     * @param arguments the command-line arguments, for the provenance
     * @param out       where tables and messages go
     */
    public TrainingSession(Protocol protocol, RunSettings settings, List<String> arguments, PrintWriter out) {
        this.protocol = protocol;
        this.settings = settings;
        this.arguments = List.copyOf(arguments);
        this.out = out;
    }

    /**
     * Runs the session.
     *
     * @throws IOException              when data cannot be read or run files cannot be written
     * @throws IllegalArgumentException for settings that do not fit (naming the option)
     */
    public Outcome run() throws IOException {
        DataDirectory dataDir = DataDirectory.resolve(settings.get(SessionOptions.DATA_DIR).map(Path::of).orElse(null));
        String dataset = settings.require(WorkloadOptions.DATASET, "choose the data set");
        RunEngines.check(settings);   // a cluster option without a cluster engine is refused before any work
        if (!Workloads.isGenerated(dataset)) {
            checkCanonical(dataDir, dataset);
        }
        settings.get(RunOptions.PARTITION).ifPresent(Partitioners::of);   // a bad scheme is refused before any work
        Optional<RunCheckpoint.Saved> saved = settings.get(SessionOptions.RESUME).map(TrainingSession::readCheckpoint);
        if (saved.isEmpty() && settings.has(SessionOptions.CONTINUE_WITH_NEW_SETTINGS)) {
            throw SessionOptions.CONTINUE_WITH_NEW_SETTINGS.invalid("--continue-with-new-settings has no effect without"
                    + " --resume; drop it");
        }
        Workload workload = Workloads.load(settings, protocol, dataDir);
        RunSettings runSettings = WorkloadDefaults.apply(withoutSession(settings), protocol, dataset, workload.train().size());
        RunInputs inputs = workload.inputs();
        // Before the run directory and before anything large: a run that cannot fit says so instead of being killed.
        MemoryCheck.require(protocol.memory(runSettings, inputs).plus(Evaluation.memory(workload)));
        String purpose = "dpdl4j train --algo " + protocol.name() + " --dataset " + dataset;
        Optional<Path> outDir = settings.get(SessionOptions.OUT).map(Path::of);
        try (RunDirectory dir = saved.isPresent() && outDir.isEmpty()
                ? RunDirectory.claim(saved.get().file().toAbsolutePath().getParent(), purpose, true)
                : outDir.isPresent() ? RunDirectory.claim(outDir.get(), purpose, false)
                : RunDirectory.create(null, protocol.name() + "-" + dataset);
             TrainingRun run = protocol.create(runSettings, inputs)) {
            RunEngines.place(run, settings);
            run.ledger().ifPresent(l -> warnAboutDelta(l.delta(), workload));
            if (settings.get(SessionOptions.SAVE_NODE_MODELS, false) && run.partyParameters().isEmpty()) {
                throw SessionOptions.SAVE_NODE_MODELS.invalid("--save-node-models has no effect: " + protocol.name()
                        + " keeps one model, not one per party; drop it");
            }
            return new RunLoop(run, workload, dir, saved.orElse(null)).execute();
        }
    }

    private void checkCanonical(DataDirectory dir, String dataset) throws IOException {
        Path cache = Path.of(System.getProperty(HOME_PROPERTY, Path.of(System.getProperty("user.home"), ".dpdl4j").toString()))
                .resolve(VERIFIED_CACHE);
        boolean strict = settings.get(SessionOptions.STRICT_DATA, false);
        CanonicalCheckResult result = new CanonicalDataCheck(cache, "drop --strict-data")
                .check(dir, dataset, strict ? CanonicalDataCheck.Policy.ERROR : CanonicalDataCheck.Policy.WARN);
        for (String warning : result.warnings()) {
            out.println("warning: " + warning + " (pass --strict-data to refuse such files)");
        }
        out.flush();
    }

    /**
     * delta at or above 1/N allows a mechanism that publishes some examples in the clear: say so. N is the number of
     * training examples, the smallest number of protected units any protocol here has.
     */
    private void warnAboutDelta(double delta, Workload workload) {
        long n = workload.train().size();
        if (delta >= 1.0 / n) {
            out.printf(Locale.ROOT, "warning: --delta %s is at least 1/N = 1/%d: an (epsilon, delta) guarantee with such a delta"
                    + " allows publishing some training examples in the clear; choose delta well below 1/%d, e.g. %s%n",
                    delta, n, n, 1.0 / (10.0 * n) < 1e-5 ? String.format(Locale.ROOT, "%.0e", Math.pow(10, Math.floor(Math.log10(0.1 / n)))) : "1e-5");
            out.flush();
        }
    }

    /** The settings a protocol and its checkpoint see: not where the run writes, resumes from, or computes. */
    private static RunSettings withoutSession(RunSettings s) {
        RunSettings r = RunEngines.withoutEngine(s);
        for (RunOption<?> o : SessionOptions.all()) {
            r = r.without(o);
        }
        return r;
    }

    private static RunCheckpoint.Saved readCheckpoint(String path) {
        Path p = Path.of(path);
        return RunCheckpoint.read(Files.isDirectory(p) ? p.resolve(RunCheckpoint.FILE_NAME) : p);
    }

    /** The training loop and its files. */
    private final class RunLoop {
        private final TrainingRun run;
        private final Workload workload;
        private final RunDirectory dir;
        private final RunCheckpoint.Saved saved;
        private final MetricsTable table;
        private final String unit;
        private final long checkpointEvery;
        private double lossSum;
        private long lossCount;

        RunLoop(TrainingRun run, Workload workload, RunDirectory dir, RunCheckpoint.Saved saved) {
            this.run = run;
            this.workload = workload;
            this.dir = dir;
            this.saved = saved;
            this.unit = run instanceof EpochRun ? "epoch" : run.stepUnit();
            this.table = new MetricsTable(unit, workload, run.ledger().isPresent());
            this.checkpointEvery = settings.get(SessionOptions.CHECKPOINT_EVERY, 0L);
        }

        Outcome execute() throws IOException {
            if (saved != null) {
                resume();
            }
            dir.writeConfig(config(), Provenance.capture(Map.of("seed", run.settings().get(RunOptions.SEED, 1L)), arguments));
            run.reports().forEach(dir::writeText);
            Path checkpoint = dir.file(RunCheckpoint.FILE_NAME);
            Outcome outcome = Outcome.COMPLETED;
            String stop = null;
            try (MetricsCsv csv = metricsFile();
                 ProgressBar bar = ProgressBar.builder(protocol.name() + " on " + workload.name(), run.plannedSteps())
                         .unit(run.stepUnit() + "s").build()) {
                bar.set(run.completedSteps());
                run.addListener(r -> afterStep(bar, checkpoint));
                try {
                    if (run instanceof EpochRun epochs) {
                        trainByEpoch(epochs, csv, bar);
                    } else {
                        trainByStep(csv, bar);
                    }
                } catch (PrivacyBudgetExceededException e) {
                    outcome = Outcome.BUDGET_REACHED;
                    stop = e.getMessage();
                    if (table.last() == null || table.last().step() != stepLabel()) {
                        csv.append(table.values(evaluate()));
                    }
                } catch (TrainingDivergedException e) {
                    outcome = Outcome.DIVERGED;
                    stop = e.getMessage();
                }
                bar.finish();
            }
            if (outcome == Outcome.DIVERGED) {
                return diverged(stop, checkpoint);
            }
            finish(checkpoint);
            if (stop != null) {
                out.println();
                out.println(stop);
            }
            out.flush();
            return outcome;
        }

        /** Bookkeeping of every step: the progress bar, the loss since the last row, periodic checkpoints. */
        private void afterStep(ProgressBar bar, Path checkpoint) {
            bar.step();
            if (!Double.isNaN(run.lastLoss())) {
                lossSum += run.lastLoss();
                lossCount++;
                bar.field("loss", run.lastLoss());
            }
            run.ledger().ifPresent(l -> bar.field("eps", l.epsilon()));
            if (checkpointEvery > 0 && run.completedSteps() % checkpointEvery == 0) {
                RunCheckpoint.save(run, checkpoint);
            }
        }

        /** Rounds (hops, steps), a row every --eval-every of them and at the end. */
        private void trainByStep(MetricsCsv csv, ProgressBar bar) {
            long evalEvery = settings.get(SessionOptions.EVAL_EVERY, Math.max(1, run.plannedSteps() / 50));
            while (!run.isFinished()) {
                run.step();
                if (run.completedSteps() % evalEvery == 0 || run.isFinished()) {
                    row(csv, bar);
                }
            }
        }

        /**
         * Whole epochs (so the network's listeners see their epochs), a row every --eval-every epochs and at the end; a
         * fractional last epoch is taken step by step.
         */
        private void trainByEpoch(EpochRun epochs, MetricsCsv csv, ProgressBar bar) {
            long evalEvery = settings.get(SessionOptions.EVAL_EVERY, 1L);
            long perEpoch = epochs.stepsPerEpoch();
            while (!run.isFinished()) {
                if (run.completedSteps() % perEpoch == 0 && run.plannedSteps() - run.completedSteps() >= perEpoch) {
                    epochs.fitEpoch();
                } else {
                    run.step();
                    if (run.completedSteps() % perEpoch != 0 && !run.isFinished()) {
                        continue;
                    }
                }
                long done = (long) Math.ceil(stepLabel());
                if (done % evalEvery == 0 || run.isFinished()) {
                    row(csv, bar);
                }
            }
        }

        private void row(MetricsCsv csv, ProgressBar bar) {
            MetricsTable.Row row = evaluate();
            csv.append(table.values(row));
            if (workload.classification()) {
                bar.field("acc", row.testAccuracy());
            }
        }

        /** Restores the saved run, says what changed, and carries its metrics history into this run's file. */
        private void resume() {
            ResumeReport report = RunCheckpoint.resume(run, saved, new ResumePolicy(
                    settings.get(SessionOptions.CONTINUE_WITH_NEW_SETTINGS, false), "pass --continue-with-new-settings"));
            out.println("Resumed " + saved.file() + " after " + report.fromStep() + " " + run.stepUnit() + "s (saved "
                    + saved.writtenAt() + ")");
            List<SettingChange> changes = report.changes();
            if (!changes.isEmpty()) {
                out.println("  changed settings: " + String.join(", ", changes.stream().map(SettingChange::describe).toList()));
            }
            run.ledger().ifPresent(l -> {
                out.printf(Locale.ROOT, "  spent so far: epsilon = %.4f (delta = %s)%s%n", l.epsilon(), l.delta(),
                        report.newSegment() ? "; the new settings start a new segment of the ledger, composed with the saved one" : "");
            });
            Path history = saved.file().toAbsolutePath().getParent().resolve("metrics.csv");
            if (Files.isRegularFile(history)) {
                // Read without changing it (it may be another run's directory); the rows after the checkpoint are
                // redone by this run.
                CsvTable old = CsvTable.readWholeRows(history);
                double done = stepLabel();
                List<List<String>> keep = old.rows().stream().filter(r -> Double.parseDouble(r.get(0)) <= done).toList();
                keep.forEach(r -> table.addSaved(old.header(), r));
                Path file = dir.file("metrics.csv");
                if (!file.toAbsolutePath().normalize().equals(history.normalize()) || keep.size() != old.size()) {
                    MetricsCsv.replace(file, old.header(), keep);
                }
            }
            out.flush();
        }

        private MetricsCsv metricsFile() {
            Path file = dir.file("metrics.csv");
            return Files.isRegularFile(file) ? MetricsCsv.resume(file, table.header()) : MetricsCsv.create(file, table.header());
        }

        /** The step column's value now: epochs (possibly fractional) for central training, else steps. */
        private double stepLabel() {
            return run instanceof EpochRun e ? (double) run.completedSteps() / e.stepsPerEpoch() : run.completedSteps();
        }

        private MetricsTable.Row evaluate() {
            if (run instanceof AbstractTrainingRun base) {
                base.requireFiniteParameters();
            }
            Evaluation train;
            Evaluation test;
            Optional<INDArray> own = workload.personal() != null ? run.partyParameters() : Optional.empty();
            if (own.isPresent()) {
                // every user's own model on its own data: the mean model says nothing of personalized learning (a
                // protocol that learns one shared model is evaluated on the pooled data below)
                train = workload.personalEvaluation(own.get(), false);
                test = workload.personalEvaluation(own.get(), true);
            } else {
                MultiLayerNetwork net = run.model();
                boolean classification = workload.classification();
                train = Evaluation.of(net, workload.train(), classification);
                test = workload.test() == workload.train() ? train : Evaluation.of(net, workload.test(), classification);
            }
            double gap = workload.synthetic() != null ? workload.optimalityGap(run.partyParameters().orElseGet(run::parameters)) : Double.NaN;
            double eps = run.ledger().map(l -> l.epsilon()).orElse(Double.NaN);
            double label = stepLabel();
            MetricsTable.Row row = new MetricsTable.Row(label, train.loss(), test.loss(), test.accuracy(),
                    lossCount == 0 ? Double.NaN : lossSum / lossCount, gap, eps);
            lossSum = 0;
            lossCount = 0;
            table.add(row);
            return row;
        }

        private Map<String, Object> config() {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("algorithm", protocol.name());
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("dataset", workload.name());
            data.put("model", workload.model().cliName());
            data.put("trainExamples", workload.train().size());
            data.put("testExamples", workload.test() == workload.train() ? 0 : workload.test().size());
            data.put("features", workload.nIn());
            data.put("outputs", workload.nOut());
            data.put("precision", workload.dataType().name().toLowerCase(Locale.ROOT));
            c.put("workload", data);
            c.put("settings", run.settings().texts());
            c.put("engine", RunEngines.describe(run));
            c.put("resolved", run.resolved());
            return c;
        }

        /** The final checkpoint, the model(s), the per-party metrics, the privacy statement, the summary and plot. */
        private void finish(Path checkpoint) throws IOException {
            RunCheckpoint.save(run, checkpoint);
            AtomicFiles.replace(dir.file("model.zip"), f -> ModelSerializer.writeModel(run.model(), f.toFile(), false));
            Optional<INDArray> parties = run.partyParameters();
            double[] partyMetric = null;
            if (parties.isPresent()) {
                partyMetric = perParty(parties.get());
                if (settings.get(SessionOptions.SAVE_NODE_MODELS, false)) {
                    MultiLayerNetwork net = run.model();
                    for (int i = 0; i < parties.get().size(0); i++) {
                        net.setParams(parties.get().getRow(i).reshape(1, net.numParams()).castTo(net.params().dataType()));
                        AtomicFiles.replace(dir.file("model-node-" + i + ".zip"), f -> ModelSerializer.writeModel(net, f.toFile(), false));
                    }
                }
            }
            if (run.ledger().isPresent()) {
                String statement = run.privacyStatement();
                dir.writeText("privacy.txt", statement);
                out.println();
                out.print(statement);
            }
            TerminalTable summary = summary(partyMetric);
            out.println();
            out.print(summary.render());
            dir.writeText("summary.md", summary.toMarkdown());
            Plots.writeTraining(dir.file("training.png"), table.curves(protocol.name() + " - " + workload.name(),
                    workload.classification(), run.ledger()));
            out.println("Run files: " + dir.path().toAbsolutePath());
            out.println("  " + dir.listing());
        }

        /** Each party's own model: test accuracy (or squared distance to the optimum of the synthetic task). */
        private double[] perParty(INDArray models) {
            int n = (int) models.size(0);
            double[] metric = new double[n];
            boolean synthetic = workload.synthetic() != null;
            List<String> header = synthetic ? List.of("node", "squared_distance_to_optimum")
                    : List.of("node", "test_loss", "test_accuracy");
            if (workload.personal() != null) {
                return perUser(models);
            }
            MultiLayerNetwork net = run.model();
            try (MetricsCsv csv = MetricsCsv.create(dir.file("nodes.csv"), header)) {
                double[] optimum = synthetic ? workload.synthetic().optimum() : null;
                for (int i = 0; i < n; i++) {
                    INDArray row = models.getRow(i).dup();
                    if (synthetic) {
                        double[] x = row.castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE).toDoubleVector();
                        double d = 0;
                        for (int k = 0; k < x.length; k++) {
                            d += (x[k] - optimum[k]) * (x[k] - optimum[k]);
                        }
                        metric[i] = d;
                        csv.append(i, d);
                    } else {
                        Evaluation e = Evaluation.ofParams(net, row, workload.test(), workload.classification());
                        metric[i] = workload.classification() ? e.accuracy() : e.loss();
                        csv.append(i, e.loss(), e.accuracy());
                    }
                }
            }
            return metric;
        }

        /** Each user's own model on its own test set (personalized learning). */
        private double[] perUser(INDArray models) {
            List<Evaluation> each = workload.personalEvaluations(models, true);
            double[] metric = new double[each.size()];
            try (MetricsCsv csv = MetricsCsv.create(dir.file("nodes.csv"), List.of("node", "train_examples", "test_loss", "test_accuracy"))) {
                for (int i = 0; i < metric.length; i++) {
                    metric[i] = each.get(i).accuracy();
                    csv.append(i, workload.personal().agents().get(i).train().size(), each.get(i).loss(), metric[i]);
                }
            }
            return metric;
        }

        private TerminalTable summary(double[] partyMetric) {
            TerminalTable t = new TerminalTable("Final metrics (" + protocol.name() + ", " + workload.name() + ", "
                    + workload.model().cliName() + ")", "metric", "value");
            MetricsTable.Row last = table.last();
            t.addRow(unit + "s", format(stepLabel()) + " of " + (run instanceof EpochRun e ? format(e.plannedEpochs()) : run.plannedSteps()));
            if (last != null) {
                t.addRow("train loss", String.format(Locale.ROOT, "%.5f", last.trainLoss()));
                if (workload.classification()) {
                    t.addRow("test loss", String.format(Locale.ROOT, "%.5f", last.testLoss()));
                    t.addRow("test accuracy", String.format(Locale.ROOT, "%.4f", last.testAccuracy()));
                }
                if (workload.synthetic() != null) {
                    t.addRow("optimality gap (1/n) sum ||x_i - x*||^2", String.format(Locale.ROOT, "%.5g", last.optimalityGap()));
                }
            }
            run.ledger().ifPresent(l -> t.addRow("epsilon (delta = " + l.delta() + ")", String.format(Locale.ROOT, "%.4f", l.epsilon())));
            run.resolved().forEach((k, v) -> t.addRow(k, v instanceof Double d ? String.format(Locale.ROOT, "%.6g", d) : String.valueOf(v)));
            if (partyMetric != null) {
                double[] sorted = partyMetric.clone();
                java.util.Arrays.sort(sorted);
                t.addRow(workload.synthetic() != null ? "node models: ||x_i - x*||^2 min / median / max"
                                : "node models: test accuracy min / median / max",
                        String.format(Locale.ROOT, "%.4g / %.4g / %.4g", sorted[0], sorted[sorted.length / 2], sorted[sorted.length - 1]));
            }
            return t;
        }

        private Outcome diverged(String message, Path checkpoint) {
            out.println();
            out.println("error: " + message);
            out.println("No metric of the diverged model is reported and no model is saved. "
                    + (Files.isRegularFile(checkpoint) ? "The last good checkpoint is " + checkpoint + "." : "No checkpoint was written."));
            dir.writeText("summary.md", "# " + protocol.name() + " on " + workload.name() + ": diverged\n\n" + message + "\n");
            out.flush();
            return Outcome.DIVERGED;
        }
    }

    private static String format(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
