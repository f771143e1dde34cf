package org.dpdl4j.experiments.training;

import org.dpdl4j.privacy.ledger.EpsilonFormat;
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
import java.util.stream.Collectors;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.dpdl4j.attacks.observe.PartitionSchemes;
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
import org.dpdl4j.experiments.workload.Workload;
import org.dpdl4j.experiments.workload.WorkloadDefaults;
import org.dpdl4j.experiments.workload.WorkloadOptions;
import org.dpdl4j.experiments.workload.Workloads;
import org.dpdl4j.privacy.ledger.DeltaAdvice;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.CheckpointException;
import org.dpdl4j.runtime.EpochRun;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.MemoryEstimate;
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
    /** The command whose run directories this session writes (recorded in their lock files). */
    public static final String COMMAND = "dpdl4j train";
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
        settings.get(RunOptions.PARTITION).ifPresent(PartitionSchemes::of);   // a bad scheme is refused before any work
        Optional<RunCheckpoint.Saved> saved = settings.get(SessionOptions.RESUME).map(TrainingSession::readCheckpoint);
        if (saved.isPresent() && settings.get(SessionOptions.DRY_RUN, false)) {
            // The planned ledger starts at step 0: priced alone it would leave out what the saved run has spent.
            throw SessionOptions.DRY_RUN.invalid("--dry-run prices a run from its first step, but a resumed run continues"
                    + " the saved run's ledger, which it would leave out; drop --dry-run (the resumed run states what it"
                    + " has spent before its first step), or drop --resume to price a fresh run");
        }
        if (saved.isEmpty() && settings.has(SessionOptions.CONTINUE_WITH_NEW_SETTINGS)) {
            throw SessionOptions.CONTINUE_WITH_NEW_SETTINGS.invalid("--continue-with-new-settings has no effect without"
                    + " --resume; drop it");
        }
        Workload workload = Workloads.load(settings, protocol, dataDir);
        RunSettings given = withoutSession(settings);
        RunSettings withDefaults = WorkloadDefaults.apply(given, protocol, dataset, workload.train().size());
        announceDefaults(given, withDefaults, dataset);
        RunSettings runSettings = keepSavedAccountant(withDefaults, saved);
        RunInputs inputs = workload.inputs();
        // Before the run directory and before anything large: a run that cannot fit says so instead of being killed.
        MemoryEstimate memory = protocol.memory(runSettings, inputs).plus(Evaluation.memory(workload));
        if (settings.get(SessionOptions.DRY_RUN, false)) {
            return DryRun.print(protocol, runSettings, inputs, workload.train().size(), memory, out);
        }
        MemoryCheck.require(memory);
        String purpose = "dpdl4j train --algo " + protocol.name() + " --dataset " + dataset;
        Optional<Path> outDir = settings.get(SessionOptions.OUT).map(Path::of);
        // A resumed run continues in its own directory (or --out naming it); else --out must be new or empty.
        Optional<Path> savedDir = saved.map(s -> s.file().toAbsolutePath().getParent().normalize());
        Optional<Path> claimed = outDir.or(() -> savedDir);
        boolean ownDirectory = claimed.isPresent() && claimed.map(p -> p.toAbsolutePath().normalize()).equals(savedDir);
        try (RunDirectory dir = claimed.isPresent()
                ? RunDirectory.claim(claimed.get(), COMMAND, purpose, ownDirectory ? RunDirectory.Reuse.SAME_COMMAND : RunDirectory.Reuse.NOTHING)
                : RunDirectory.fresh(protocol.name() + "-" + dataset);
             TrainingRun run = protocol.create(runSettings, inputs)) {
            RunEngines.place(run, settings);
            saved.ifPresent(TrainingSession::requireUnchanged);
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

    /** Names the data set's defaults the run takes for options the user left out, so that none is taken unseen. */
    private void announceDefaults(RunSettings given, RunSettings withDefaults, String dataset) {
        String filled = withDefaults.all().stream().filter(setting -> !given.has(setting.option()))
                .map(setting -> setting.option().flag() + " " + setting.text())
                .collect(Collectors.joining(", "));
        if (!filled.isEmpty()) {
            out.println("Defaults for " + dataset + " (give an option to change it): " + filled);
            out.flush();
        }
    }

    /**
     * delta at or above 1/N allows a mechanism that publishes some examples in the clear: say so. N is the number of
     * training examples, the smallest number of protected units any protocol here has.
     */
    private void warnAboutDelta(double delta, Workload workload) {
        DeltaAdvice.optionWarning(delta, workload.train().size()).ifPresent(warning -> {
            out.println(warning);
            out.flush();
        });
    }

    /**
     * A resumed run is priced as it started: without --accountant it takes the saved run's accountant (Renyi DP for a
     * checkpoint saved before the accountant was recorded), for its calibration, its budget stop and its reports.
     */
    private RunSettings keepSavedAccountant(RunSettings s, Optional<RunCheckpoint.Saved> saved) {
        String savedAccountant = saved.map(c -> c.settings().values().get(RunOptions.ACCOUNTANT.name())).orElse(null);
        if (savedAccountant == null || s.has(RunOptions.ACCOUNTANT) || !protocol.options().contains(RunOptions.ACCOUNTANT)) {
            return s;
        }
        out.println("resuming with --accountant " + savedAccountant + ", the accountant the saved run was priced by");
        out.flush();
        return s.withText(RunOptions.ACCOUNTANT, savedAccountant);
    }

    /** The settings a protocol and its checkpoint see: not where the run writes, resumes from, or computes. */
    private static RunSettings withoutSession(RunSettings s) {
        RunSettings r = RunEngines.withoutEngine(s);
        for (RunOption<?> o : SessionOptions.all()) {
            r = r.without(o);
        }
        return r;
    }

    /**
     * Refuses to continue a checkpoint that changed after it was read and before the run directory was claimed: another
     * run was still writing it, and continuing the older one would overwrite what that run spent.
     */
    private static void requireUnchanged(RunCheckpoint.Saved saved) {
        String now = RunCheckpoint.stamp(saved.file());
        if (!now.equals(RunCheckpoint.stamp(saved))) {
            throw new CheckpointException(saved.file(), "changed while this run started (it now holds " + now + "; another"
                    + " run was writing it): wait for that run to end, then resume again");
        }
    }

    private static RunCheckpoint.Saved readCheckpoint(String path) {
        Path p = Path.of(path);
        return RunCheckpoint.read(Files.isDirectory(p) ? p.resolve(RunCheckpoint.FILE_NAME) : p);
    }

    /** How often a run without --checkpoint-every saves a checkpoint while it trains. */
    private static final java.time.Duration DEFAULT_CHECKPOINT_INTERVAL = java.time.Duration.ofMinutes(10);
    /** The loop's --checkpoint-every when it is not given: by time, every {@link #DEFAULT_CHECKPOINT_INTERVAL}. */
    private static final long EVERY_FEW_MINUTES = -1;
    /** The names under which the loop's running loss is saved with the run's checkpoint. */
    private static final String LOSS_SUM = "loss-since-last-row.sum";
    private static final String LOSS_COUNT = "loss-since-last-row.count";

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
        /** Where to save the checkpoint that is due at a step whose row is due too, once the row is written; else null. */
        private Path checkpointAfterRow;
        /** When the last periodic checkpoint was due (or training started). */
        private long lastCheckpointNanos = System.nanoTime();

        RunLoop(TrainingRun run, Workload workload, RunDirectory dir, RunCheckpoint.Saved saved) {
            this.run = run;
            this.workload = workload;
            this.dir = dir;
            this.saved = saved;
            this.unit = run instanceof EpochRun ? "epoch" : run.stepUnit();
            this.table = new MetricsTable(unit, workload, run.ledger().isPresent());
            this.checkpointEvery = settings.get(SessionOptions.CHECKPOINT_EVERY, EVERY_FEW_MINUTES);
        }

        Outcome execute() throws IOException {
            // A finished run's checkpoint is reopened, not resumed: its outputs are written again (after a full disk,
            // say) from the saved state, without a step.
            boolean reopened = saved != null && saved.completedSteps() >= run.plannedSteps();
            if (saved != null) {
                restore(reopened);
            }
            dir.writeConfig(config(), Provenance.capture(Map.of("seed", run.settings().get(RunOptions.SEED, 1L)), arguments));
            run.reports().forEach(dir::writeText);
            RunOutputs outputs = new RunOutputs(protocol.name(), run, workload, dir, table,
                    settings.get(SessionOptions.SAVE_NODE_MODELS, false), out);
            if (reopened) {
                out.println("The run is finished: its outputs are written again from its checkpoint, without training"
                        + " (nothing more is spent).");
                outputs.writeFromState();
                return Outcome.COMPLETED;
            }
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
                        // A row for the stop; a continued run drops it, so the loss since the last evaluation point
                        // goes on into the checkpoint as if it had not been written.
                        double sum = lossSum;
                        long count = lossCount;
                        csv.append(table.values(evaluate()));
                        lossSum = sum;
                        lossCount = count;
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
            outputs.writeAfterTraining(notes());
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
            // rounded up, as in the statements; "eps~" when the ledger prices an estimate
            run.ledger().ifPresent(l -> bar.field(l.notAGuarantee().isPresent() ? "eps~" : "eps", EpsilonFormat.upward(l.epsilon())));
            if (checkpointDue()) {
                lastCheckpointNanos = System.nanoTime();
                if (rowDue()) {
                    // saved once this step's row is in metrics.csv: a crash while it is evaluated then resumes from the
                    // checkpoint before, which evaluates the row again, instead of from one that counts it as written
                    checkpointAfterRow = checkpoint;
                } else {
                    RunCheckpoint.save(run, checkpoint, notes());
                }
            }
        }

        /**
         * Whether a periodic checkpoint is due after the step just taken: every --checkpoint-every steps (never with 0),
         * or without it once {@link #DEFAULT_CHECKPOINT_INTERVAL} of training has passed since the last one, so that a
         * crash of a long run loses at most that much.
         */
        private boolean checkpointDue() {
            if (checkpointEvery == EVERY_FEW_MINUTES) {
                return System.nanoTime() - lastCheckpointNanos >= DEFAULT_CHECKPOINT_INTERVAL.toNanos() && !run.isFinished();
            }
            return checkpointEvery > 0 && run.completedSteps() % checkpointEvery == 0;
        }

        /** Whether the step just taken ends with a row of metrics.csv. */
        private boolean rowDue() {
            if (run instanceof EpochRun e && run.completedSteps() % e.stepsPerEpoch() != 0 && !run.isFinished()) {
                return false;
            }
            return isEvaluationPoint(Math.ceil(stepLabel()));
        }

        /**
         * What the loop saves with the run: the loss summed since the last evaluation point, so that a continued run's
         * next row averages the same steps as an uninterrupted run's.
         */
        private Map<String, String> notes() {
            return notes(lossSum, lossCount);
        }

        private static Map<String, String> notes(double sum, long count) {
            return Map.of(LOSS_SUM, Double.toString(sum), LOSS_COUNT, Long.toString(count));
        }

        /** Rounds (hops, steps), a row every --eval-every of them and at the end. */
        private void trainByStep(MetricsCsv csv, ProgressBar bar) {
            while (!run.isFinished()) {
                run.step();
                if (isEvaluationPoint(run.completedSteps())) {
                    row(csv, bar);
                }
            }
        }

        /**
         * Whole epochs (so the network's listeners see their epochs), a row every --eval-every epochs and at the end; a
         * fractional last epoch is taken step by step.
         */
        private void trainByEpoch(EpochRun epochs, MetricsCsv csv, ProgressBar bar) {
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
                if (isEvaluationPoint(Math.ceil(stepLabel()))) {
                    row(csv, bar);
                }
            }
        }

        private void row(MetricsCsv csv, ProgressBar bar) {
            MetricsTable.Row row = evaluate();
            csv.append(table.values(row));
            if (checkpointAfterRow != null) {
                RunCheckpoint.save(run, checkpointAfterRow, notes());   // the row's loss sum was reset by evaluate()
                checkpointAfterRow = null;
            }
            if (workload.classification()) {
                bar.field("acc", row.testAccuracy());
            }
        }

        /**
         * Whether a row of metrics.csv is due at this step label (epochs for central training, else steps): every
         * --eval-every of them, and at the end of the plan.
         */
        private boolean isEvaluationPoint(double label) {
            boolean byEpoch = run instanceof EpochRun;
            long every = settings.get(SessionOptions.EVAL_EVERY, byEpoch ? 1L : Math.max(1, run.plannedSteps() / 50));
            double end = run instanceof EpochRun e ? e.plannedEpochs() : run.plannedSteps();
            return label >= end || (label == Math.rint(label) && (long) label % every == 0);
        }

        /**
         * Restores the saved run (to continue it, or, when it is finished, to write its outputs again), says what
         * changed, and carries its metrics history into this run's file.
         */
        private void restore(boolean finished) {
            ResumePolicy policy = ResumePolicy.commandLine(settings.get(SessionOptions.CONTINUE_WITH_NEW_SETTINGS, false),
                    "pass --continue-with-new-settings");
            ResumeReport report = finished ? RunCheckpoint.reopen(run, saved, policy) : RunCheckpoint.resume(run, saved, policy);
            lossSum = Double.parseDouble(saved.notes().getOrDefault(LOSS_SUM, "0"));
            lossCount = Long.parseLong(saved.notes().getOrDefault(LOSS_COUNT, "0"));
            out.println((finished ? "Reopened " : "Resumed ") + saved.file() + " after " + report.fromStep() + " "
                    + run.stepUnit() + "s (saved " + saved.writtenAt() + ")");
            List<SettingChange> changes = report.changes();
            if (!changes.isEmpty()) {
                out.println("  changed settings: " + String.join(", ", changes.stream().map(c -> c.describe(policy.settingPrefix())).toList()));
            }
            run.ledger().ifPresent(l -> {
                out.printf(Locale.ROOT, "  spent so far: epsilon = %s (delta = %s%s)%s%n", EpsilonFormat.upward(l.epsilon()), l.delta(),
                        l.notAGuarantee().isPresent() ? "; not a guarantee" : "",
                        report.newSegment() ? "; the new settings start a new segment of the ledger, composed with the saved one" : "");
            });
            Path history = saved.file().toAbsolutePath().getParent().resolve("metrics.csv");
            if (Files.isRegularFile(history)) {
                // Read without changing it (it may be another run's directory). The rows after the checkpoint are
                // redone by this run, and so is a row that only the stop wrote (a budget stop between evaluation
                // points): a continued run's history is then the one an uninterrupted run writes.
                CsvTable old = CsvTable.readWholeRows(history);
                double done = stepLabel();
                List<List<String>> keep = old.rows().stream().filter(r -> {
                    double step = Double.parseDouble(r.get(0));
                    return step < done || (step == done && (finished || isEvaluationPoint(step)));
                }).toList();
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

}
