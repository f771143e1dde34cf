package org.dpdl4j.experiments.tuning;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.dpdl4j.experiments.report.Figure;
import org.dpdl4j.experiments.report.MetricsCsv;
import org.dpdl4j.experiments.report.Panel;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.experiments.report.Series;
import org.dpdl4j.experiments.report.TerminalTable;
import org.dpdl4j.privacy.ledger.EpsilonFormat;

/**
 * The tuner's own record, kept in the folder {@value #FOLDER} of the run directory, apart from what is released: the
 * settings with the pool and K ({@code config.json}), every candidate with its number, configuration and score
 * ({@code candidates.csv}, {@code tuning.png}, {@code summary.md}). It shows K, which the tuning bound assumes secret,
 * and every candidate's score: the guarantee does not cover it.
 */
final class OperatorRecord {
    /** The folder's name inside the run directory. */
    static final String FOLDER = "operator";

    private final RunDirectory folder;
    private final String protocol;
    private final boolean noisyScores;

    /**
     * @param run         the run directory
     * @param protocol    the tuned protocol's name, for titles
     * @param noisyScores whether the scores were released with noise (private tuning)
     */
    OperatorRecord(RunDirectory run, String protocol, boolean noisyScores) {
        this.folder = run.folder(FOLDER);
        this.protocol = protocol;
        this.noisyScores = noisyScores;
    }

    /** {@code config.json}: the settings, the space, the pool, K and the provenance. */
    void writeConfig(Map<String, Object> config, Provenance provenance) {
        folder.writeConfig(config, provenance);
    }

    /**
     * {@code candidates.csv}: every candidate in order, with the best score so far. Written whole after every candidate
     * (and at the end), so that a tuning stopped midway keeps the candidates it trained.
     */
    void writeCandidates(SearchSpace space, List<CandidateResult> all) {
        List<String> header = new ArrayList<>(List.of("candidate", "pool_index"));
        header.addAll(space.options());
        header.addAll(List.of("outcome", "score", "best_so_far", "run_epsilon", "steps", "planned_steps"));
        List<List<Object>> rows = new ArrayList<>();
        double bestSoFar = Double.NEGATIVE_INFINITY;
        for (CandidateResult r : all) {
            bestSoFar = Math.max(bestSoFar, r.score());
            List<Object> row = new ArrayList<>(List.of(r.number() + 1, r.poolIndex()));
            space.options().forEach(o -> row.add(r.values().get(o)));
            row.addAll(List.of(r.outcome().label(), r.score(), bestSoFar, r.epsilon(), r.steps(), r.planned()));
            rows.add(row);
        }
        MetricsCsv.replace(folder.file("candidates.csv"), header, rows);
    }

    /** The table of every candidate (the terminal shows it too: the operator's screen). */
    TerminalTable table(SearchSpace space, List<CandidateResult> all, Optional<CandidateResult> best) {
        List<String> columns = new ArrayList<>(List.of("#", "pool"));
        columns.addAll(space.options());
        columns.addAll(List.of("outcome", "score", "run eps", "best"));
        TerminalTable t = new TerminalTable("Candidates (" + protocol + ", score = " + (noisyScores ? "noisy " : "")
                + "validation accuracy; the operator's record, not released)", columns);
        for (CandidateResult r : all) {
            List<Object> row = new ArrayList<>(List.of(r.number() + 1, r.poolIndex()));
            space.options().forEach(o -> row.add(r.values().get(o)));
            row.add(r.outcome().label());
            row.add(String.format(Locale.ROOT, "%.4f", r.score()));
            row.add(Double.isNaN(r.epsilon()) ? "-" : EpsilonFormat.upward(r.epsilon(), 3));
            row.add(best.isPresent() && best.get().number() == r.number() ? "*" : "");
            t.addRow(row);
        }
        return t;
    }

    /** {@code summary.md}: the table, the best candidate and the statement. */
    void writeSummary(String workload, TerminalTable table, String bestLine, String statement) {
        folder.writeText("summary.md", "# Tuning " + protocol + " on " + workload + "\n\n" + table.toMarkdown()
                + (bestLine.isEmpty() ? "" : "\n" + bestLine) + "\n```\n" + statement + "```\n");
    }

    /** {@code tuning.png}: every candidate's score and the best so far (nothing when no candidate ran). */
    void writePlot(List<CandidateResult> all) {
        if (all.isEmpty()) {
            return;
        }
        double[] x = new double[all.size()];
        double[] y = new double[all.size()];
        double[] bestSoFar = new double[all.size()];
        double best = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < x.length; i++) {
            x[i] = i + 1;
            y[i] = Double.isInfinite(all.get(i).score()) ? Double.NaN : all.get(i).score();
            best = Math.max(best, all.get(i).score());
            bestSoFar[i] = Double.isInfinite(best) ? Double.NaN : best;
        }
        Panel panel = Panel.of("Tuning " + protocol, "candidate", "validation accuracy",
                List.of(new Series("candidate", x, y), new Series("best so far", x, bestSoFar))).withMarkers(true);
        Plots.write(folder.file("tuning.png"), Figure.of(panel));
    }

    /** Its files, for the closing lines. */
    String listing() {
        return FOLDER + "/: " + folder.listing();
    }
}
