package org.dpdl4j.experiments.training;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.dpdl4j.experiments.report.MetricsCsv;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.experiments.report.TerminalTable;
import org.dpdl4j.experiments.workload.Evaluation;
import org.dpdl4j.experiments.workload.Workload;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.EpochRun;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.runtime.TrainingRun;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What a run leaves when it ends (completed, or stopped by its budget): its checkpoint, then the statements (privacy.txt,
 * summary.md, the run's reports such as verification.csv, training.png), then the models (model.zip, each party's model) and nodes.csv.
 *
 * <p>The order is what keeps a run directory honest when a write fails (a full disk, say). The checkpoint comes first,
 * so the trained state is never lost: {@code --resume} writes everything else again from it, without a step and
 * without spending privacy. The statements come before the models, so a model on disk is never described by an older
 * statement that spent less: after a failure, a statement may describe a model that was not written yet, never the
 * other way round. Every file is written whole or not at all, and replaces an earlier one (a resumed run ends again).
 */
final class RunOutputs {
    private final String protocol;
    private final TrainingRun run;
    private final Workload workload;
    private final RunDirectory dir;
    private final MetricsTable table;
    private final boolean saveNodeModels;
    private final PrintWriter out;

    RunOutputs(String protocol, TrainingRun run, Workload workload, RunDirectory dir, MetricsTable table, boolean saveNodeModels,
               PrintWriter out) {
        this.protocol = protocol;
        this.run = run;
        this.workload = workload;
        this.dir = dir;
        this.table = table;
        this.saveNodeModels = saveNodeModels;
        this.out = out;
    }

    /**
     * Saves the checkpoint (with the training loop's notes), then writes the run's outputs.
     *
     * @throws UncheckedIOException naming the file that could not be written and how to get the outputs back
     */
    void writeAfterTraining(java.util.Map<String, String> notes) {
        Path checkpoint = dir.file(RunCheckpoint.FILE_NAME);
        try {
            RunCheckpoint.save(run, checkpoint, notes);
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException(e.getMessage() + ". No output of this run was written. Once the checkpoint can be"
                    + " written (a full disk: free space), continue with --resume " + dir.path() + " from the last checkpoint"
                    + " written, if any", e.getCause());
        }
        writeFromState();
    }

    /**
     * Writes the outputs of the state the run holds (trained just now, or reopened from a finished checkpoint): nothing
     * is trained and nothing is spent.
     */
    void writeFromState() {
        Optional<INDArray> parties = run.partyParameters();
        // Everything is computed before the first file is written, so that a failure of the evaluation leaves no
        // statement half replaced.
        List<List<Object>> nodeRows = parties.map(this::partyRows).orElse(null);
        double[] partyMetric = nodeRows == null ? null : nodeRows.stream().mapToDouble(this::partyMetric).toArray();
        String statement = run.ledger().isPresent() ? run.privacyStatement() + coverage() : null;
        TerminalTable summary = summary(partyMetric);
        try {
            if (statement != null) {
                dir.writeText("privacy.txt", statement);
            }
            dir.writeText("summary.md", summary.toMarkdown());
            run.reports().forEach(dir::writeText);   // again: some grow while the run trains (verification.csv)
            Plots.writeTraining(dir.file("training.png"), table.curves(protocol + " - " + workload.name(),
                    workload.classification(), run.ledger()));
            dir.writeFile("model.zip", f -> ModelSerializer.writeModel(run.model(), f.toFile(), false));
            if (parties.isPresent() && saveNodeModels) {
                writeNodeModels(parties.get());
            }
            if (nodeRows != null) {
                MetricsCsv.replace(dir.file("nodes.csv"), nodeHeader(), nodeRows);
            }
        } catch (UncheckedIOException e) {
            throw new UncheckedIOException(e.getMessage() + ". The trained run is kept in " + dir.file(RunCheckpoint.FILE_NAME)
                    + ": once the file can be written (a full disk: free space), give the same command with --resume "
                    + dir.path() + " to write the outputs again from it, without training and without spending more privacy",
                    e.getCause());
        }
        if (statement != null) {
            out.println();
            out.print(statement);
        }
        out.println();
        out.print(summary.render());
        out.println("Run files: " + dir.path().toAbsolutePath());
        out.println("  " + dir.listing());
        out.flush();
    }

    /** Which files the statement covers: the released models, not the operator's record of the training. */
    private String coverage() {
        boolean nodeFiles = saveNodeModels && run.partyParameters().isPresent();
        boolean nodesReleased = nodeFiles && run.partyModelsReleased();
        String models = "model.zip" + (nodesReleased ? " and model-node-<i>.zip" : "");
        String covers = isGuarantee(run.ledger().orElseThrow())
                ? "Covers: " + models + " (the released model" + (nodesReleased ? "s" : "") + ")."
                : "Covers nothing as a guarantee (see the WARNING above); " + models + (nodesReleased ? " hold the models"
                        : " holds the model") + " such a run would release.";
        List<String> record = new ArrayList<>();
        record.add("metrics.csv, " + (run.partyParameters().isPresent() ? "nodes.csv, " : "") + "summary.md and training.png"
                + " (the models evaluated on the training and test data without noise)");
        if (nodeFiles && !nodesReleased) {
            record.add("model-node-<i>.zip (the agents' internal states, which they never publish)");
        }
        if (!run.reports().isEmpty()) {
            record.add(String.join(", ", new java.util.TreeSet<>(run.reports().keySet())) + " (the parties' data and the run,"
                    + " exactly)");
        }
        record.add("config.json (the run's settings and what they resolved to)");
        record.add("checkpoint.bin (the run's whole state)");
        return covers + " Not covered, the operator's record and not for release: " + String.join("; ", record) + ".\n";
    }

    /** Whether the ledger's epsilon is a guarantee: secure randomness, and nothing marked it otherwise. */
    private static boolean isGuarantee(RunLedger ledger) {
        return ledger.notAGuarantee().isEmpty() && ledger.ledger().allSecure();
    }

    private void writeNodeModels(INDArray parties) {
        MultiLayerNetwork net = run.model();
        for (int i = 0; i < parties.size(0); i++) {
            net.setParams(parties.getRow(i).reshape(1, net.numParams()).castTo(net.params().dataType()));
            dir.writeFile("model-node-" + i + ".zip", f -> ModelSerializer.writeModel(net, f.toFile(), false));
        }
    }

    private List<String> nodeHeader() {
        if (workload.personal() != null) {
            return List.of("node", "train_examples", "test_loss", "test_accuracy");
        }
        return workload.synthetic() != null ? List.of("node", "squared_distance_to_optimum") : List.of("node", "test_loss", "test_accuracy");
    }

    /**
     * The party's metric in its row of nodes.csv: test accuracy (on its own test set in personalized learning), test
     * loss for regression, or the squared distance to the optimum of the synthetic task.
     */
    private double partyMetric(List<Object> row) {
        boolean loss = workload.personal() == null && workload.synthetic() == null && !workload.classification();
        return ((Number) row.get(loss ? row.size() - 2 : row.size() - 1)).doubleValue();
    }

    /** One row of nodes.csv per party. */
    private List<List<Object>> partyRows(INDArray models) {
        List<List<Object>> rows = new ArrayList<>();
        if (workload.personal() != null) {
            List<Evaluation> each = workload.personalEvaluations(models, true);
            for (int i = 0; i < each.size(); i++) {
                rows.add(List.of(i, (long) workload.personal().agents().get(i).train().size(), each.get(i).loss(),
                        each.get(i).accuracy()));
            }
            return rows;
        }
        MultiLayerNetwork net = run.model();
        double[] optimum = workload.synthetic() != null ? workload.synthetic().optimum() : null;
        for (int i = 0; i < models.size(0); i++) {
            INDArray row = models.getRow(i).dup();
            if (optimum != null) {
                double[] x = row.castTo(DataType.DOUBLE).toDoubleVector();
                double d = 0;
                for (int k = 0; k < x.length; k++) {
                    d += (x[k] - optimum[k]) * (x[k] - optimum[k]);
                }
                rows.add(List.of(i, d));
            } else {
                Evaluation e = Evaluation.ofParams(net, row, workload.test(), workload.classification());
                rows.add(List.of(i, e.loss(), e.accuracy()));
            }
        }
        return rows;
    }

    private TerminalTable summary(double[] partyMetric) {
        String unit = run instanceof EpochRun ? "epoch" : run.stepUnit();
        TerminalTable t = new TerminalTable("Final metrics (" + protocol + ", " + workload.name() + ", "
                + workload.model().cliName() + ")", "metric", "value");
        MetricsTable.Row last = table.last();
        double done = run instanceof EpochRun e ? (double) run.completedSteps() / e.stepsPerEpoch() : run.completedSteps();
        t.addRow(unit + "s", format(done) + " of " + (run instanceof EpochRun e ? format(e.plannedEpochs()) : run.plannedSteps()));
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
        run.ledger().ifPresent(l -> t.addRow("epsilon (delta = " + l.delta() + (isGuarantee(l) ? "" : "; not a guarantee, see"
                + " privacy.txt") + ")", EpsilonFormat.upward(l.epsilon())));
        run.resolved().forEach((k, v) -> t.addRow(k, v instanceof Double d ? resolvedValue(k, d) : String.valueOf(v)));
        if (run instanceof org.dpdl4j.optim.DeviceRun d) {
            t.addRow("computed on", d.computedOn());
        }
        if (partyMetric != null) {
            double[] sorted = partyMetric.clone();
            Arrays.sort(sorted);
            t.addRow(workload.synthetic() != null ? "node models: ||x_i - x*||^2 min / median / max"
                            : "node models: test accuracy min / median / max",
                    String.format(Locale.ROOT, "%.4g / %.4g / %.4g", sorted[0], sorted[sorted.length / 2], sorted[sorted.length - 1]));
        }
        return t;
    }

    /** A resolved value as the summary shows it: an epsilon rounded up (never shown below what was spent). */
    private static String resolvedValue(String key, double value) {
        return key.toLowerCase(Locale.ROOT).contains("epsilon") ? EpsilonFormat.upwardSignificant(value, 6)
                : String.format(Locale.ROOT, "%.6g", value);
    }

    static String format(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
