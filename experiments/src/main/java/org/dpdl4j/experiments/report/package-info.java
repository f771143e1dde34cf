/**
 * What a run leaves behind, for people and for programs: its directory and {@code config.json} with
 * provenance ({@link org.dpdl4j.experiments.report.RunDirectory}, {@link org.dpdl4j.experiments.report.Provenance}), metrics
 * flushed row by row ({@link org.dpdl4j.experiments.report.MetricsCsv}, read back with
 * {@link org.dpdl4j.experiments.report.CsvTable}), PNG figures ({@link org.dpdl4j.experiments.report.Plots}), tables for the
 * terminal and for markdown ({@link org.dpdl4j.experiments.report.TerminalTable}) and progress on stderr
 * ({@link org.dpdl4j.experiments.report.ProgressBar}).
 *
 * <p>A training command typically does:
 * <pre>{@code
 * RunDirectory run = RunDirectory.of(out, "dpdl4j train", "train-mnist");
 * run.writeConfig(config, Provenance.capture(Map.of("master", seed), List.of(args)));
 * try (MetricsCsv metrics = run.createMetrics("metrics.csv", List.of("epoch", "loss", "accuracy"));
 *      ProgressBar bar = ProgressBar.start("train", epochs)) {
 *     for (int epoch = 1; epoch <= epochs; epoch++) {
 *         ... train one epoch ...
 *         metrics.append(epoch, loss, accuracy);
 *         bar.field("loss", loss).field("acc", accuracy).step();
 *     }
 * }
 * Plots.writeTraining(run.file("training.png"), TrainingCurves.fromTable(
 *         CsvTable.read(run.file("metrics.csv")), "MLP on MNIST", "epoch", List.of("loss"), List.of("accuracy")));
 * }</pre>
 */
package org.dpdl4j.experiments.report;
