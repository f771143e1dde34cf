package org.dpdl4j.cli.train;

import org.dpdl4j.cli.report.MetricsCsv;
import org.dpdl4j.cli.report.Plots;
import org.dpdl4j.cli.report.ProgressBar;
import org.dpdl4j.cli.report.Provenance;
import org.dpdl4j.cli.report.RunDirectory;
import org.dpdl4j.cli.report.TerminalTable;
import org.dpdl4j.cli.report.TrainingCurves;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Where a training job writes: the run directory, the terminal, and the files people and machines read. */
final class RunContext {
    private final RunDirectory directory;
    private final PrintWriter out;
    private final List<String> arguments;

    RunContext(RunDirectory directory, PrintWriter out, List<String> arguments) {
        this.directory = directory;
        this.out = out;
        this.arguments = List.copyOf(arguments);
    }

    PrintWriter out() {
        return out;
    }

    Path directory() {
        return directory.path();
    }

    Path file(String name) {
        return directory.file(name);
    }

    /** Writes config.json: the resolved settings with provenance (versions, seeds, arguments). */
    void writeConfig(Object settings, Map<String, Long> seeds) {
        directory.writeConfig(settings, Provenance.capture(seeds, arguments));
    }

    MetricsCsv metrics(List<String> header) {
        return directory.createMetrics("metrics.csv", header);
    }

    MetricsCsv metricsFile(String name, List<String> header) {
        return directory.createMetrics(name, header);
    }

    ProgressBar progress(String label, long total, String unit) {
        return ProgressBar.builder(label, total).unit(unit).build();
    }

    void writeText(String name, String text) {
        directory.writeText(name, text);
    }

    void writeJson(String name, Object value) {
        directory.writeJson(name, value);
    }

    /** Prints the final table and saves it (summary.md) and the training plot (training.png). */
    void finish(TerminalTable summary, TrainingCurves curves) {
        out.println();
        out.print(summary.render());
        directory.writeText("summary.md", summary.toMarkdown());
        Path png = Plots.writeTraining(directory.file("training.png"), curves);
        out.println("Run files: " + directory.path().toAbsolutePath());
        out.println("  config.json, metrics.csv, summary.md, " + png.getFileName());
        out.flush();
    }
}
