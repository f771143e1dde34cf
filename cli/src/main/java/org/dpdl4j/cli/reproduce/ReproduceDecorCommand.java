package org.dpdl4j.cli.reproduce;

import org.dpdl4j.cli.DataDirOption;
import org.dpdl4j.cli.report.MetricsCsv;
import org.dpdl4j.cli.report.Plots;
import org.dpdl4j.cli.report.ProgressBar;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.accounting.correlated.CalibratedPair;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.SecureNoiseStreams;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedCalibration;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;
import org.dpdl4j.protocol.decentralized.DecentralizedPrivacy;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.DecorCompatibility;
import org.dpdl4j.protocol.decentralized.NoisePairChoice;
import org.dpdl4j.protocol.decentralized.ReferenceCodeEpsilon;
import org.dpdl4j.runtime.NodeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code dpdl4j reproduce decor}: the grid of Decor's Figure 1 (epsilons x {CDP, Decor, LDP} x
 * topologies x seeds) on the synthetic, a9a or MNIST task, with noise calibrated at or below each target.
 */
@Command(name = "decor", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reproduce Decor's Figure 1 on one task: CDP, Decor and LDP on the complete graph, the 4x4 torus and",
                "the ring, over an epsilon grid and several seeds. Writes results.csv, figure.png and summary.md",
                "(beside the paper's numbers) to --out (default results/decor/<task>)."})
public final class ReproduceDecorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--task", required = true, description = "synthetic, a9a or mnist.")
    String task;

    @Option(names = "--epsilons", split = ",", description = "Target epsilons; default: the paper's plotted grid of the task.")
    List<Double> epsilons;

    @Option(names = "--epsilon-mode", defaultValue = "proper",
            description = "proper: calibrate to an (epsilon, delta)-DP guarantee (default); reference: calibrate to the Decor code's "
                    + "example-level value (MNIST figure only; NOT a DP guarantee; the proper epsilon of each run is reported beside it).")
    String epsilonMode;

    @Option(names = "--topologies", split = ",", defaultValue = "complete,torus,ring", description = "Topologies; default ${DEFAULT-VALUE}.")
    List<String> topologies;

    @Option(names = "--seeds", description = "Number of seeds; default: 5 synthetic, 4 a9a, 3 mnist.")
    Integer seeds;

    @Option(names = "--tune-pairs", description = "Decor noise pairs tried on a separate tuning seed (the best is kept); default: 6 synthetic, "
            + "1 (the smallest sigma_cdp, as the reference scripts) for a9a and mnist.")
    Integer tunePairs;

    @Option(names = "--tune-lr", split = ",", description = "Learning-rate factors tried for every setting and epsilon on the separate "
            + "tuning seed, times the table's eta_0 (the best is kept; lr-tuning.csv; a resumed run keeps an earlier choice); default: none, "
            + "the table's rates as they are.")
    List<Double> tuneLr;

    @Option(names = "--rounds", description = "Override the paper's number of rounds (for quick looks; results are then not comparable).")
    Long rounds;

    @Option(names = "--delta", defaultValue = "1e-5", description = "delta; default ${DEFAULT-VALUE}.")
    double delta;

    @Option(names = "--noise", defaultValue = "seeded", description = "seeded (reproducible, default for experiments) or secure.")
    String noise;

    @Mixin
    DataDirOption data;

    @Option(names = "--out", description = "Output directory; default results/decor/<task> (runs/decor-<task>-quick with --quick).")
    Path out;

    @Option(names = "--fresh", description = "Discard the results already in --out instead of resuming after the last finished run.")
    boolean fresh;

    @Option(names = "--quick", description = "A small grid for a first look (about two minutes on the synthetic task): epsilon 5, 10, 20, "
            + "torus and ring, one seed, 3 Decor pairs tried. Not the paper's grid.")
    boolean quick;

    /** Seed of the runs that choose a Decor noise pair, never used for reported results. */
    private static final long TUNING_SEED = 1_000_001L;

    /** One finished run. */
    record Row(double epsilon, DecorSetting setting, long seed, double sigmaCdp, double sigmaCor, double clip, double eta0,
               double properEpsilon, double referenceEpsilon, double metric) {

        /** Whether this row was run with these hyperparameters and this noise pair (the CSV keeps full precision). */
        boolean sameRunAs(DecorTask.Hyper h, double[] pair) {
            return eta0 == h.learningRate().at(0) && clip == h.clip() && sigmaCdp == pair[0]
                    && (setting.algorithm() != DecentralizedAlgorithm.DECOR || sigmaCor == pair[1]);
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter pw = spec.commandLine().getOut();
        boolean reference = switch (epsilonMode) {
            case "proper" -> false;
            case "reference" -> true;
            default -> throw new IllegalArgumentException("unknown --epsilon-mode '" + epsilonMode + "'; use proper or reference");
        };
        DecorTask t = switch (task) {
            case "synthetic" -> new SyntheticDecorTask(1);
            case "a9a" -> new A9aDecorTask(data.resolve());
            case "mnist" -> new MnistDecorTask(data.resolve(), reference);
            default -> throw new IllegalArgumentException("unknown --task '" + task + "'; use synthetic, a9a or mnist");
        };
        if (reference && !task.equals("mnist")) {
            throw new IllegalArgumentException("--epsilon-mode reference applies to the example-level MNIST task only");
        }
        if (quick) {
            epsilons = epsilons != null ? epsilons : task.equals("synthetic") ? List.of(5.0, 10.0, 20.0) : t.workload().epsilons();
            seeds = seeds != null ? seeds : 1;
            tunePairs = tunePairs != null ? tunePairs : 3;
            if (!spec.commandLine().getParseResult().hasMatchedOption("--topologies")) {
                topologies = List.of("torus", "ring");
            }
        }
        List<Double> grid = epsilons != null ? epsilons : t.workload().epsilons();
        int nSeeds = seeds != null ? seeds : t.workload().seeds();
        int pairs = tunePairs != null ? tunePairs : task.equals("synthetic") ? 6 : 1;
        long roundCount = rounds != null ? rounds : t.workload().rounds();
        Path dir = out != null ? out : quick ? Path.of("runs", "decor-" + task + "-quick")
                : Path.of("results", "decor", task + (reference ? "-reference-epsilon" : ""));
        Files.createDirectories(dir);
        if (fresh) {
            for (String previous : new String[]{"results.csv", "noise-pair-tuning.csv", "lr-tuning.csv"}) {
                if (Files.deleteIfExists(dir.resolve(previous))) {
                    pw.println("Discarding the earlier " + previous + " in " + dir);
                }
            }
        }
        FinishedRuns finished = FinishedRuns.read(dir.resolve("results.csv"), dir.resolve("noise-pair-tuning.csv"), dir.resolve("lr-tuning.csv"));
        if (!finished.isEmpty()) {
            pw.println("Resuming: " + finished.size() + " finished runs in " + dir + " are kept (use --fresh to start over)");
        }

        List<DecorSetting> settings = new ArrayList<>();
        settings.add(new DecorSetting(DecentralizedAlgorithm.CDP, "complete"));
        for (String topo : topologies) {
            settings.add(new DecorSetting(DecentralizedAlgorithm.DECOR, topo));
        }
        for (String topo : topologies) {
            settings.add(new DecorSetting(DecentralizedAlgorithm.LDP, topo));
        }
        long runs = (long) grid.size() * settings.size() * nSeeds + (long) grid.size() * topologies.size() * (pairs > 1 ? pairs : 0);
        List<Row> rows = new ArrayList<>();
        List<String> header = List.of("epsilon_target", "epsilon_mode", "algorithm", "topology", "seed", "sigma_cdp", "sigma_cor", "clip",
                "eta0", "epsilon_proper", "epsilon_reference_code", "metric");
        List<String> tuningHeader = List.of("epsilon_target", "topology", "sigma_cdp", "sigma_cor", "metric_on_tuning_seed", "chosen");
        List<String> lrHeader = List.of("epsilon_target", "algorithm", "topology", "eta0", "metric_on_tuning_seed", "chosen");
        if (tuneLr != null) {
            for (double f : tuneLr) {
                if (!(f > 0) || Double.isInfinite(f)) {
                    throw new IllegalArgumentException("--tune-lr factors must be positive finite numbers, got " + f);
                }
            }
        }
        List<Double> lrFactors = tuneLr == null ? List.of() : List.copyOf(new java.util.LinkedHashSet<>(tuneLr));
        runs += (long) grid.size() * settings.size() * lrFactors.size();
        long calibrationMinLocal = minLocal(t, nSeeds, pairs > 1 || !lrFactors.isEmpty());
        try (MetricsCsv csv = FinishedRuns.open(dir.resolve("results.csv"), header);
             MetricsCsv tuning = FinishedRuns.open(dir.resolve("noise-pair-tuning.csv"), tuningHeader);
             MetricsCsv lrTuning = lrFactors.isEmpty() ? null : FinishedRuns.open(dir.resolve("lr-tuning.csv"), lrHeader);
             ProgressBar bar = ProgressBar.builder("reproduce decor " + task, runs).unit("runs").build()) {
            for (double eps : grid) {
                for (DecorSetting s : settings) {
                    DecorTask.Hyper h = t.hyper(s, eps);
                    Graph g = graph(s.topology());
                    double kappa = reference
                            ? ReferenceCodeEpsilon.kappaFor(eps, h.clip(), t.workload().batchSize(), calibrationMinLocal)
                            : DecentralizedCalibration.kappaBudget(t.workload().unit(), t.workload().sampling(), h.clip(), t.workload().batchSize(), calibrationMinLocal, roundCount, eps, delta);
                    DecentralizedCalibration.Result cal = DecentralizedCalibration.forKappa(s.algorithm(), kappa, delta, g,
                            Adversary.eavesdropper(), NoisePairChoice.SMALLEST_SIGMA_CDP);
                    double[] pair = {cal.sigmaCdp(), cal.sigmaCor()};
                    if (s.algorithm() == DecentralizedAlgorithm.DECOR && pairs > 1) {
                        double[] kept = finished.chosenPair(eps, s.topology());
                        pair = kept != null ? kept : tune(t, s, h, g, cal.feasible(), pairs, roundCount, eps, tuning, bar);
                        if (kept != null) {
                            bar.step(pairs);
                        }
                    }
                    if (!lrFactors.isEmpty()) {
                        Double kept = finished.chosenEta0(eps, s);
                        h = kept != null ? h.withEta0(kept) : tuneLearningRate(t, s, h, g, pair, lrFactors, roundCount, eps, lrTuning, bar);
                        if (kept != null) {
                            bar.step(lrFactors.size());
                        }
                    }
                    for (long seed = 1; seed <= nSeeds; seed++) {
                        Row done = finished.row(eps, s, seed);
                        if (done != null && !done.sameRunAs(h, pair)) {
                            done = null;   // finished with other hyperparameters: run again; the old row is dropped below
                        }
                        if (done != null) {
                            rows.add(done);
                            bar.step();
                            continue;
                        }
                        Row r = run(t, s, h, g, pair[0], pair[1], roundCount, seed, eps);
                        if (!reference && r.properEpsilon() > eps * (1 + 1e-9)) {
                            throw new IllegalStateException(String.format(Locale.ROOT, "%s seed %d spent epsilon %.6f, above its "
                                    + "target %s: the calibration does not cover this run; nothing was written for it", s.label(),
                                    seed, r.properEpsilon(), eps));
                        }
                        rows.add(r);
                        csv.append(eps, epsilonMode, s.algorithm().cliName(), s.topology(), seed, r.sigmaCdp(), r.sigmaCor(), r.clip(),
                                r.eta0(), r.properEpsilon(), r.referenceEpsilon(), r.metric());
                        bar.step();
                        bar.field("eps", eps);
                        bar.field(s.label().replace(' ', '-'), r.metric());
                    }
                }
            }
            bar.finish();
        }
        FinishedRuns.keepLatest(dir.resolve("results.csv"), header, List.of("epsilon_target", "epsilon_mode", "algorithm", "topology", "seed"));
        DecorSummary summary = new DecorSummary(t, rows, settings, grid, reference, delta, roundCount, nSeeds, pairs, lrFactors, noise, commandLine());
        Files.writeString(dir.resolve("summary.md"), summary.markdown());
        Plots.write(dir.resolve("figure.png"), summary.figure());
        pw.println();
        pw.print(summary.terminalTable().render());
        pw.println();
        pw.println(summary.shapeCheck());
        pw.println("Results: " + dir.toAbsolutePath() + " (results.csv, summary.md, figure.png, noise-pair-tuning.csv"
                + (lrFactors.isEmpty() ? "" : ", lr-tuning.csv") + ")");
        pw.flush();
        return 0;
    }

    /** The options that reproduce this grid (paths left out: they belong to one machine). */
    private String commandLine() {
        StringBuilder c = new StringBuilder("--task ").append(task);
        var parsed = spec.commandLine().getParseResult();
        if (!epsilonMode.equals("proper")) {
            c.append(" --epsilon-mode ").append(epsilonMode);
        }
        if (quick) {
            c.append(" --quick");
        }
        if (parsed.hasMatchedOption("--topologies")) {
            c.append(" --topologies ").append(String.join(",", topologies));
        }
        if (epsilons != null) {
            c.append(" --epsilons ").append(epsilons.stream().map(e -> String.format(Locale.ROOT, "%s", e))
                    .collect(java.util.stream.Collectors.joining(",")));
        }
        if (seeds != null) {
            c.append(" --seeds ").append(seeds);
        }
        if (tunePairs != null) {
            c.append(" --tune-pairs ").append(tunePairs);
        }
        if (tuneLr != null) {
            c.append(" --tune-lr ").append(tuneLr.stream().map(f -> String.format(Locale.ROOT, "%s", f))
                    .collect(java.util.stream.Collectors.joining(",")));
        }
        if (rounds != null) {
            c.append(" --rounds ").append(rounds);
        }
        if (parsed.hasMatchedOption("--delta")) {
            c.append(" --delta ").append(delta);
        }
        if (!noise.equals("seeded")) {
            c.append(" --noise ").append(noise);
        }
        return c.toString();
    }

    /**
     * The smallest local dataset over every seed the grid uses (the result seeds and, when pairs are tuned, the
     * tuning seed). Partitions differ by seed, so one noise level per (epsilon, setting) must be calibrated to the
     * largest sampling rate among them: then every seed's run meets its target, none merely on average.
     */
    private long minLocal(DecorTask t, int nSeeds, boolean tuned) {
        long min = Long.MAX_VALUE;
        for (long seed = 1; seed <= nSeeds; seed++) {
            min = Math.min(min, t.nodes(seed).stream().mapToLong(NodeData::size).min().orElseThrow());
        }
        if (tuned) {
            min = Math.min(min, t.nodes(TUNING_SEED).stream().mapToLong(NodeData::size).min().orElseThrow());
        }
        return min;
    }

    private static Graph graph(String topology) {
        return switch (topology) {
            case "complete" -> Topologies.complete(16);
            case "torus" -> Topologies.torus(4, 4);
            case "ring" -> Topologies.ring(16);
            default -> throw new IllegalArgumentException("unknown topology '" + topology + "'; use complete, torus or ring");
        };
    }

    /** Tries up to {@code count} feasible pairs, spread over the calibration grid, on a seed not used for the results. */
    private double[] tune(DecorTask t, DecorSetting s, DecorTask.Hyper h, Graph g, List<CalibratedPair> feasible, int count, long rounds,
                         double eps, MetricsCsv tuning, ProgressBar bar) {
        List<CalibratedPair> tried = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            int index = count == 1 ? 0 : (int) Math.round((double) k * k / ((count - 1) * (count - 1)) * (feasible.size() - 1));
            CalibratedPair p = feasible.get(index);
            if (!tried.contains(p)) {
                tried.add(p);
            }
        }
        double best = Double.NaN;
        double[] chosen = null;
        List<double[]> results = new ArrayList<>();
        for (CalibratedPair p : tried) {
            Row r = run(t, s, h, g, p.sigmaCdp(), p.sigmaCor(), rounds, TUNING_SEED, eps);
            results.add(new double[]{p.sigmaCdp(), p.sigmaCor(), r.metric()});
            boolean better = Double.isNaN(best) || (t.workload().lowerIsBetter() ? r.metric() < best : r.metric() > best);
            if (better) {
                best = r.metric();
                chosen = new double[]{p.sigmaCdp(), p.sigmaCor()};
            }
            bar.step();
        }
        for (double[] r : results) {
            tuning.append(eps, s.topology(), r[0], r[1], r[2], r[0] == chosen[0] && r[1] == chosen[1]);
        }
        return chosen;
    }

    /**
     * Tries each factor times the table's learning rate on the tuning seed and keeps the best. The table was tuned
     * by the reference scripts for their own noise (spec 3.7: the pairwise terms there are drawn once and scaled by
     * W_ij), so with the paper's fresh pairwise noise its rates need not be the best ones.
     */
    private DecorTask.Hyper tuneLearningRate(DecorTask t, DecorSetting s, DecorTask.Hyper table, Graph g, double[] pair,
                                             List<Double> factors, long rounds, double eps, MetricsCsv lrTuning, ProgressBar bar) {
        DecorTask.Hyper best = null;
        double bestMetric = Double.NaN;
        List<double[]> results = new ArrayList<>();
        for (double f : factors) {
            DecorTask.Hyper h = table.withEta0(table.learningRate().at(0) * f);
            Row r = run(t, s, h, g, pair[0], pair[1], rounds, TUNING_SEED, eps);
            results.add(new double[]{h.learningRate().at(0), r.metric()});
            boolean better = best == null || (t.workload().lowerIsBetter() ? r.metric() < bestMetric : r.metric() > bestMetric);
            if (better) {
                best = h;
                bestMetric = r.metric();
            }
            bar.step();
        }
        for (double[] r : results) {
            lrTuning.append(eps, s.algorithm().cliName(), s.topology(), r[0], r[1], r[0] == best.learningRate().at(0));
        }
        return best;
    }

    private Row run(DecorTask t, DecorSetting s, DecorTask.Hyper h, Graph g, double sigmaCdp, double sigmaCor, long rounds, long seed,
                    double eps) {
        List<NodeData> nodes = t.nodes(seed);
        long minLocal = nodes.stream().mapToLong(NodeData::size).min().orElseThrow();
        MixingMatrix w = s.algorithm() == DecentralizedAlgorithm.CDP ? MixingMatrix.averaging(g) : MixingMatrix.metropolisHastings(g);
        DecentralizedConfig cfg = new DecentralizedConfig(s.algorithm(), t.workload().unit(), t.workload().objective(), h.clip(), sigmaCdp,
                s.algorithm() == DecentralizedAlgorithm.DECOR ? sigmaCor : 0.0, h.learningRate(), t.workload().weightDecay(), t.workload().batchSize(),
                t.workload().sampling(), rounds, seed, DecorCompatibility.NONE);
        NoiseStreams streams = noise.equals("secure") ? new SecureNoiseStreams(g) : new SeededNoiseStreams(seed);
        double metric;
        try (DecentralizedTrainer trainer = new DecentralizedTrainer(t.template(seed), g, w, nodes, cfg, streams)) {
            metric = t.runAndMeasure(trainer);
        }
        DecentralizedPrivacy privacy = DecentralizedPrivacy.of(cfg, g, Adversary.eavesdropper(), minLocal, delta);
        double kappa = privacy.kappa() != null ? privacy.kappa().kappa()
                : s.algorithm() == DecentralizedAlgorithm.CDP ? 1.0 / (16 * sigmaCdp * sigmaCdp) : 1.0 / (sigmaCdp * sigmaCdp);
        double referenceEps = t.workload().name().equals("mnist") ? ReferenceCodeEpsilon.of(kappa, h.clip(), t.workload().batchSize(), minLocal) : Double.NaN;
        return new Row(eps, s, seed, sigmaCdp, cfg.sigmaCor(), h.clip(), h.learningRate().at(0), privacy.epsilon(rounds), referenceEps, metric);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, Math.abs(v) >= 0.01 || v == 0 ? "%.4f" : "%.3g", v);
    }

    static Map<String, List<Row>> bySetting(List<Row> rows, double eps) {
        Map<String, List<Row>> out = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.epsilon() == eps) {
                out.computeIfAbsent(r.setting().label(), k -> new ArrayList<>()).add(r);
            }
        }
        return out;
    }
}
