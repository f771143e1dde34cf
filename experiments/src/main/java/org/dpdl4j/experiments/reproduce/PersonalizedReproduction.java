package org.dpdl4j.experiments.reproduce;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.data.synthetic.BelletAgent;
import org.dpdl4j.data.synthetic.BelletCollaborativeClassification;
import org.dpdl4j.data.synthetic.BelletConfig;
import org.dpdl4j.data.synthetic.BelletProblem;
import org.dpdl4j.attacks.membership.BroadcastInverter;
import org.dpdl4j.attacks.membership.GradientAlignmentMembership;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.Figure;
import org.dpdl4j.experiments.report.Panel;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.Series;
import org.dpdl4j.experiments.report.TerminalTable;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.protocol.personalized.AgentData;
import org.dpdl4j.protocol.personalized.BudgetAllocation;
import org.dpdl4j.protocol.personalized.CoordinateDescentRun;
import org.dpdl4j.protocol.personalized.GossipAdmmRun;
import org.dpdl4j.protocol.personalized.LocalDataPerturbation;
import org.dpdl4j.protocol.personalized.LocalModels;
import org.dpdl4j.protocol.personalized.ModelPropagationRun;
import org.dpdl4j.protocol.personalized.PersonalizedProblem;
import org.dpdl4j.protocol.personalized.PersonalizedRun;
import org.dpdl4j.protocol.personalized.ReleaseMechanism;
import org.dpdl4j.protocol.personalized.ReleasePlan;
import org.dpdl4j.protocol.personalized.WakeSchedule;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Bellet et al.'s collaborative linear classification (spec 6.6): purely local models, non-private coordinate
 * descent, and private coordinate descent (Laplace, equal split of epsilon-bar, after a private warm start of a third
 * of it: 0.05 beside the paper's 0.15) for every dimension p and every epsilon-bar of a sweep, with mu (and the private
 * runs' releases per agent and whether to warm-start) tuned on a validation instance drawn with another seed; local
 * models on locally private data (Figure 4); then, at the largest p, accuracy against the releases per agent, the warm
 * start's effect, every agent's gain over its local model against its data size, the objective and accuracy of CD, the
 * gossip ADMM baseline and model propagation against iterations and transmitted vectors, and an eavesdropper's
 * membership attack. Features are scaled to L1 norm at most 1, so the
 * logistic loss's gradient has L1 norm at most 1 and Theorem 1's calibration with L_0 = 1 is sound.
 */
public final class PersonalizedReproduction {
    private static final double LIPSCHITZ = 1.0;
    /** The gossip ADMM's penalty: the best of 0.1, 1 and 10 on a small instance (GossipAdmmTest's). */
    private static final double ADMM_RHO = 0.1;

    /**
     * @param dims              the dimensions p
     * @param agents            n
     * @param epsilonBars       every agent's budget for coordinate descent, swept (the first is the paper's 0.15)
     * @param warmStartShare    the warm start's epsilon as a share of epsilon-bar (1/3: 0.05 beside 0.15)
     * @param deltaBar          the advanced composition's slack
     * @param mus               mu candidates
     * @param releases          releases per agent T_i tried by the private runs
     * @param sweepReleases     releases per agent of the sweep at the largest p (Figures 2a-b)
     * @param ticksPerAgent     non-private CD and model propagation run this many ticks per agent
     * @param warmTicksPerAgent the private warm start's model propagation runs this many ticks per agent
     * @param noiseSeeds        private runs are evaluated over this many noise seeds (tuned on one)
     * @param localDpEpsilons   the per-record epsilons of the local-DP-on-the-data baseline
     * @param featureNormBound  private CD's local smoothness from this public feature bound
     *                          ({@link PersonalizedProblem#withPublicSmoothness}), NaN for each agent's own (the paper's)
     */
    public record Settings(List<Integer> dims, int agents, List<Double> epsilonBars, double warmStartShare, double deltaBar,
                           List<Double> mus, List<Integer> releases, List<Integer> sweepReleases, int ticksPerAgent,
                           int warmTicksPerAgent, int noiseSeeds, List<Double> localDpEpsilons, long seed,
                           double featureNormBound, Path out) {
        public static Settings full(Path out) {
            return new Settings(List.of(2, 5, 10, 20, 50, 100), 100, List.of(0.15, 1.5, 15.0, 150.0, 1500.0), 1.0 / 3,
                    Math.exp(-5), List.of(0.01, 0.1, 1.0, 10.0), List.of(1, 3, 10), List.of(1, 3, 10, 30, 100), 100, 30, 3,
                    List.of(1.0, 10.0, 100.0), 1, Double.NaN, out);
        }

        public static Settings quick(Path out) {
            return new Settings(List.of(2, 20), 30, List.of(0.15, 15.0), 1.0 / 3, Math.exp(-5), List.of(0.1, 1.0, 10.0),
                    List.of(1, 3, 10), List.of(1, 3, 10), 40, 20, 1, List.of(10.0), 1, Double.NaN, out);
        }

        /** These settings with private CD's local smoothness from a public feature bound B. */
        public Settings withFeatureNormBound(double bound) {
            return new Settings(dims, agents, epsilonBars, warmStartShare, deltaBar, mus, releases, sweepReleases, ticksPerAgent,
                    warmTicksPerAgent, noiseSeeds, localDpEpsilons, seed, bound, out);
        }

        /** The paper's headline budget: the first of the sweep. */
        double headline() {
            return epsilonBars.get(0);
        }
    }

    private record Outcome(double accuracy, double objective, double epsilonSum, double epsilonAdvanced, INDArray models) {
    }

    /** A private configuration chosen on the validation instance. */
    private record Choice(double mu, int releases, boolean warm) {
    }

    private final Settings settings;
    private final boolean fresh;
    private final WrittenFiles written;
    private final java.util.Map<BelletProblem, INDArray> localModels = new java.util.IdentityHashMap<>();

    /**
     * @param fresh discard what an interrupted reproduction finished in the output directory instead of going on from
     *              there ({@link ReproductionJournal})
     */
    public PersonalizedReproduction(Settings settings, boolean fresh) {
        this.settings = settings;
        this.fresh = fresh;
        this.written = new WrittenFiles(settings.out());
    }

    private BelletProblem instance(int p, long seed) {
        return BelletCollaborativeClassification.generate(BelletConfig.defaults().withAgents(settings.agents()).withDim(p), seed);
    }

    private static List<AgentData> train(BelletProblem b) {
        return b.agents().stream().map(a -> AgentData.ofClasses(a.train().features(), a.train().labels())).toList();
    }

    private static List<AgentData> test(BelletProblem b) {
        return b.agents().stream().map(BelletAgent::test).map(t -> AgentData.ofClasses(t.features(), t.labels())).toList();
    }

    private static PersonalizedProblem problem(BelletProblem b, double mu) {
        List<AgentData> agents = train(b);
        return new PersonalizedProblem(agents, b.similarity(), PersonalizedProblem.inverseSizes(agents), mu);
    }

    /** The problem private CD runs on: the paper's, or with its smoothness from the public feature bound. */
    private PersonalizedProblem privateProblem(BelletProblem b, double mu) {
        PersonalizedProblem own = problem(b, mu);
        return Double.isNaN(settings.featureNormBound()) ? own : own.withPublicSmoothness(settings.featureNormBound());
    }

    /** The purely local models of an instance (they do not depend on mu), solved once. */
    private INDArray local(BelletProblem b) {
        return localModels.computeIfAbsent(b, key -> LocalModels.solve(problem(key, 1.0)));
    }

    private int[] schedule(int n, long ticks, long seed) {
        return WakeSchedule.draw(n, ticks, NoiseKind.SEEDED.streams(n, seed).sampling(0, 0));
    }

    private Outcome nonPrivate(BelletProblem b, double mu) {
        PersonalizedProblem problem = problem(b, mu);
        int n = problem.agentCount();
        CoordinateDescentRun run = new CoordinateDescentRun(RunSettings.empty(), null, problem, problem.zeros(),
                schedule(n, (long) settings.ticksPerAgent() * n, settings.seed()), null, null);
        run.runToEnd();
        INDArray m = run.models();
        return new Outcome(PersonalizedProblem.meanAccuracy(test(b), m), run.objective(), Double.POSITIVE_INFINITY,
                Double.POSITIVE_INFINITY, m);
    }

    /**
     * Private CD at budget epsilon-bar with T_i releases per agent, after a private warm start (of epsilon-bar times the
     * share) or from zero, averaged over {@code seeds} noise seeds.
     */
    private Outcome privateCd(BelletProblem b, double epsilonBar, Choice c, int seeds) {
        PersonalizedProblem problem = privateProblem(b, c.mu());
        int n = problem.agentCount();
        double warmStart = c.warm() ? epsilonBar * settings.warmStartShare() : 0;
        List<AgentData> tests = test(b);
        double accuracy = 0;
        double objective = 0;
        double sum = 0;
        double advanced = 0;
        INDArray models = null;
        for (int r = 0; r < seeds; r++) {
            long seed = settings.seed() * 1000 + r;
            INDArray start = problem.zeros();
            if (c.warm()) {
                INDArray noisyLocal = LocalModels.perturb(problem, local(b), warmStart, LIPSCHITZ, NoiseKind.SEEDED.streams(n, seed));
                ModelPropagationRun mp = new ModelPropagationRun(RunSettings.empty(), problem, noisyLocal,
                        schedule(n, (long) settings.warmTicksPerAgent() * n, seed + 7));
                mp.runToEnd();
                start = mp.models();
            }
            CoordinateDescentRun run = privateRun(problem, start, epsilonBar, c.releases(), warmStart, seed);
            run.runToEnd();
            models = run.models();
            accuracy += PersonalizedProblem.meanAccuracy(tests, models);
            objective += run.objective();
            sum = Math.max(sum, run.epsilon());
            advanced = Math.max(advanced, run.worstEpsilonAdvanced());
        }
        return new Outcome(accuracy / seeds, objective / seeds, sum, advanced, models);
    }

    /**
     * Private CD (Laplace, equal split over T_i releases per agent) from {@code start}, its schedule and noise drawn
     * from {@code seed} (the noise streams of the warm start, which uses round -1).
     */
    private CoordinateDescentRun privateRun(PersonalizedProblem problem, INDArray start, double epsilonBar, int releases,
                                            double warmStart, long seed) {
        int n = problem.agentCount();
        int[] schedule = schedule(n, (long) releases * n, seed);
        ReleasePlan plan = ReleasePlan.of(problem, schedule, ReleaseMechanism.LAPLACE, LIPSCHITZ, epsilonBar,
                BudgetAllocation.EQUAL_SPLIT, releases, 0, settings.deltaBar(), warmStart);
        return CoordinateDescentRun.withStandardLedger(RunSettings.empty(), problem, start, schedule, plan,
                NoiseKind.SEEDED.streams(n, seed), 1e-5, false);
    }

    /** mu, T_i and the warm start that maximise private CD's validation accuracy (one noise seed) at this budget. */
    private Choice tunePrivate(BelletProblem validation, double epsilonBar) {
        Choice chosen = null;
        double best = -1;
        for (double mu : settings.mus()) {
            for (int t : settings.releases()) {
                for (boolean warm : new boolean[]{true, false}) {
                    Choice c = new Choice(mu, t, warm);
                    double a = privateCd(validation, epsilonBar, c, 1).accuracy();
                    if (a > best) {
                        best = a;
                        chosen = c;
                    }
                }
            }
        }
        return chosen;
    }

    /** The mean test accuracy of local models learned from data released with epsilon-local DP per record. */
    private double localDp(BelletProblem b, double epsilon) {
        List<AgentData> clean = train(b);
        int n = clean.size();
        double accuracy = 0;
        for (int r = 0; r < settings.noiseSeeds(); r++) {
            NoiseStreams streams = NoiseKind.SEEDED.streams(n, settings.seed() * 1000 + r);
            List<AgentData> released = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                released.add(LocalDataPerturbation.perturb(clean.get(i), epsilon, streams.privateNoise(i, -2)));
            }
            PersonalizedProblem problem = new PersonalizedProblem(released, b.similarity(), PersonalizedProblem.inverseSizes(clean), 1.0);
            accuracy += PersonalizedProblem.meanAccuracy(test(b), LocalModels.solve(problem));
        }
        return accuracy / settings.noiseSeeds();
    }

    public int run(PrintWriter console) throws IOException {
        // claimed like every --out: locked, private, and never another command's directory
        try (RunDirectory claim = RunDirectory.claim(settings.out(), "dpdl4j reproduce personalized", "dpdl4j reproduce personalized",
                RunDirectory.Reuse.SAME_COMMAND)) {
            try (ReproductionJournal journal = ReproductionJournal.open(settings.out(), shared(), fresh)) {
                if (journal.size() > 0) {
                    console.println("Going on from the " + journal.size() + " parts an interrupted reproduction finished ("
                            + settings.out().resolve(ReproductionJournal.FILE) + "; --fresh runs them again)");
                }
                runIn(console, journal);
                journal.delete();   // everything is in the files now
            }
            return 0;
        }
    }

    /**
     * What every journaled part depends on: a journal is continued only with the same (the local-DP baseline is not
     * journaled). The dimensions and budgets are in the parts' keys too, but the sweeps at the largest p, marked done by
     * one part, depend on them all, and a run with others would write over their files.
     */
    private java.util.Map<String, String> shared() {
        java.util.Map<String, String> s = new java.util.TreeMap<>();
        s.put("dims", settings.dims().toString());
        s.put("epsilon_bars", settings.epsilonBars().toString());
        s.put("agents", Integer.toString(settings.agents()));
        s.put("warm_start_share", Double.toString(settings.warmStartShare()));
        s.put("delta_bar", Double.toString(settings.deltaBar()));
        s.put("mus", settings.mus().toString());
        s.put("releases", settings.releases().toString());
        s.put("sweep_releases", settings.sweepReleases().toString());
        s.put("ticks_per_agent", Integer.toString(settings.ticksPerAgent()));
        s.put("warm_ticks_per_agent", Integer.toString(settings.warmTicksPerAgent()));
        s.put("noise_seeds", Integer.toString(settings.noiseSeeds()));
        s.put("seed", Long.toString(settings.seed()));
        s.put("feature_norm_bound", Double.toString(settings.featureNormBound()));
        return s;
    }

    /** Private CD tuned and evaluated at (p, epsilon-bar), from the journal when an interrupted run finished it. */
    private TunedPrivateCd privateAt(ReproductionJournal journal, int p, double epsilonBar, BelletProblem validation,
                                     BelletProblem evaluation) {
        String key = "p=" + p + " epsilon_bar=" + epsilonBar;
        return journal.finished(key, TunedPrivateCd::fromJson).orElseGet(() -> {
            Choice c = tunePrivate(validation, epsilonBar);
            Outcome dp = privateCd(evaluation, epsilonBar, c, settings.noiseSeeds());
            TunedPrivateCd tuned = new TunedPrivateCd(c.mu(), c.releases(), c.warm(), dp.accuracy(), dp.objective(), dp.epsilonSum(),
                    dp.epsilonAdvanced());
            journal.record(tuned.toJson(key));
            return tuned;
        });
    }

    private void runIn(PrintWriter console, ReproductionJournal journal) throws IOException {
        console.println(NoiseNotice.of(NoiseKind.SEEDED, null));
        long begin = System.nanoTime();
        List<Double> bars = settings.epsilonBars();
        StringBuilder csv = new StringBuilder("dim,method,epsilon_bar,mu,releases_per_agent,warm_start,accuracy,objective,epsilon_sum,"
                + "epsilon_advanced,delta_bar\n");
        List<String> header = new ArrayList<>(List.of("p", "local", "CD"));
        bars.forEach(e -> header.add("private " + label(e)));
        header.add("smallest budget beating local (epsilon spent)");
        TerminalTable table = new TerminalTable("Personalized learning: mean test accuracy over the agents (private CD: epsilon-bar"
                + " + warm start, tuned mu / T_i / warm start in the CSV" + (Double.isNaN(settings.featureNormBound())
                ? "; update weights from the agents' own data, as in the paper: the epsilons are not guarantees"
                : String.format(Locale.ROOT, "; private CD's smoothness from the public feature bound %s", settings.featureNormBound()))
                + ")", header.toArray(String[]::new));
        StringBuilder ldpCsv = new StringBuilder("dim,epsilon_per_record,accuracy\n");
        List<double[]> byDim = new ArrayList<>();
        List<double[]> ldpByDim = new ArrayList<>();
        int largest = settings.dims().get(settings.dims().size() - 1);
        for (int p : settings.dims()) {
            BelletProblem validation = instance(p, settings.seed() + 1000 + p);
            BelletProblem evaluation = instance(p, settings.seed() + p);
            double localAccuracy = PersonalizedProblem.meanAccuracy(test(evaluation), local(evaluation));
            double bestMu = settings.mus().get(0);
            double best = -1;
            for (double mu : settings.mus()) {
                double a = nonPrivate(validation, mu).accuracy();
                if (a > best) {
                    best = a;
                    bestMu = mu;
                }
            }
            Outcome cd = nonPrivate(evaluation, bestMu);
            csv.append(String.format(Locale.ROOT, "%d,local,0,,,,%.6f,,0,0,%n", p, localAccuracy));
            csv.append(String.format(Locale.ROOT, "%d,cd,inf,%s,%d,,%.6f,%.8g,inf,inf,%n", p, bestMu, settings.ticksPerAgent(),
                    cd.accuracy(), cd.objective()));
            double[] row = new double[3 + bars.size()];
            row[0] = p;
            row[1] = localAccuracy;
            row[2] = cd.accuracy();
            List<Object> cells = new ArrayList<>(List.of(p, fmt(localAccuracy), fmt(cd.accuracy())));
            Double smallest = null;
            double smallestSpent = Double.NaN;
            Choice[] choices = new Choice[bars.size()];
            for (int e = 0; e < bars.size(); e++) {
                TunedPrivateCd dp = privateAt(journal, p, bars.get(e), validation, evaluation);
                choices[e] = new Choice(dp.mu(), dp.releases(), dp.warm());
                csv.append(String.format(Locale.ROOT, "%d,private-cd,%s,%s,%d,%s,%.6f,%.8g,%s,%s,%.6g%n", p, bars.get(e),
                        choices[e].mu(), choices[e].releases(), choices[e].warm(), dp.accuracy(), dp.objective(),
                        EpsilonFormat.upwardSignificant(dp.epsilonSum(), 6), EpsilonFormat.upwardSignificant(dp.epsilonAdvanced(), 6),
                        settings.deltaBar()));
                row[3 + e] = dp.accuracy();
                cells.add(fmt(dp.accuracy()));
                if (smallest == null && dp.accuracy() > localAccuracy) {
                    smallest = bars.get(e);
                    smallestSpent = dp.epsilonSum();
                }
                console.printf(Locale.ROOT, "p = %d, epsilon-bar %s: private CD %.3f (mu %s, T_i %d, warm start %s, epsilon %s) [%.0f s]%n",
                        p, bars.get(e), dp.accuracy(), choices[e].mu(), choices[e].releases(), choices[e].warm() ? "yes" : "no",
                        EpsilonFormat.upwardSignificant(dp.epsilonSum(), 3), (System.nanoTime() - begin) / 1e9);
                console.flush();
            }
            cells.add(smallest == null ? "none in the sweep" : String.format(Locale.ROOT, "%s (%s)", label(smallest),
                    EpsilonFormat.upwardSignificant(smallestSpent, 3)));
            table.addRow(cells.toArray());
            byDim.add(row);
            double[] ldpRow = new double[1 + settings.localDpEpsilons().size()];
            ldpRow[0] = p;
            for (int e = 0; e < settings.localDpEpsilons().size(); e++) {
                double epsilon = settings.localDpEpsilons().get(e);
                ldpRow[1 + e] = localDp(evaluation, epsilon);
                ldpCsv.append(String.format(Locale.ROOT, "%d,%s,%.6f%n", p, epsilon, ldpRow[1 + e]));
            }
            ldpByDim.add(ldpRow);
            console.printf(Locale.ROOT, "p = %d: local %.3f, CD %.3f (mu %s), local DP on the data %s [%.0f s]%n", p, localAccuracy,
                    cd.accuracy(), bestMu, java.util.Arrays.toString(java.util.Arrays.copyOfRange(ldpRow, 1, ldpRow.length)),
                    (System.nanoTime() - begin) / 1e9);
            console.flush();
            if (p == largest) {
                largestDimension(journal, evaluation, bestMu, bars, smallest, choices, localAccuracy, console);
            }
        }
        AtomicFiles.replace(written.file("results.csv"), csv.toString());
        AtomicFiles.replace(written.file("table.txt"), table.render());
        AtomicFiles.replace(written.file("local-dp.csv"), ldpCsv.toString());
        console.print(table.render());
        double[] dims = byDim.stream().mapToDouble(r -> r[0]).toArray();
        List<Series> series = new ArrayList<>(List.of(new Series("local", dims, column(byDim, 1)),
                new Series("CD (non-private)", dims, column(byDim, 2))));
        for (int e = 0; e < bars.size(); e++) {
            series.add(new Series("private CD, " + label(bars.get(e)), dims, column(byDim, 3 + e)));
        }
        Plots.write(written.file("accuracy-vs-dimension.png"), Figure.of(new Panel("Mean test accuracy against p", "p",
                "accuracy", series, false, true)));
        List<Series> ldpSeries = new ArrayList<>(List.of(new Series("local (clean data)", dims, column(byDim, 1))));
        for (int e = 0; e < settings.localDpEpsilons().size(); e++) {
            ldpSeries.add(new Series("local on " + settings.localDpEpsilons().get(e) + "-LDP data", dims, column(ldpByDim, 1 + e)));
        }
        Plots.write(written.file("local-dp.png"), Figure.of(new Panel("Local models on locally private data against p", "p",
                "accuracy", ldpSeries, false, true)));
        console.printf(Locale.ROOT, "Done in %.1f minutes.%n", (System.nanoTime() - begin) / 60e9);
        console.println(written.line());
        console.flush();
    }

    /**
     * The sweeps, curves and membership attack at the largest p ({@link #atLargest}, {@link #membership}), which write
     * their own files; journaled with the names of those files, so that a resumed run that finds them written names them.
     */
    private void largestDimension(ReproductionJournal journal, BelletProblem evaluation, double bestMu, List<Double> bars,
                                  Double smallest, Choice[] choices, double localAccuracy, PrintWriter console) throws IOException {
        String key = "p=" + settings.dims().get(settings.dims().size() - 1) + " largest";
        java.util.Optional<com.fasterxml.jackson.databind.JsonNode> done = journal.finished(key);
        if (done.isPresent()) {
            done.get().path("files").forEach(name -> written.file(name.asText()));
            console.println("At the largest p, the sweeps, curves and membership attack were written earlier ("
                    + ReproductionJournal.FILE + ")");
            return;
        }
        List<String> before = written.names();
        int reference = smallest == null ? bars.size() - 1 : bars.indexOf(smallest);
        atLargest(evaluation, bestMu, bars.get(reference), choices[reference], localAccuracy, console);
        membership(evaluation, bestMu, choices, console);
        com.fasterxml.jackson.databind.node.ObjectNode part = ReproductionJournal.part(key);
        com.fasterxml.jackson.databind.node.ArrayNode files = part.putArray("files");
        written.names().stream().filter(name -> !before.contains(name)).forEach(files::add);
        journal.record(part);
    }

    /**
     * "epsilon-bar 0.15 (+0.05)": the algorithm's budget and, in brackets, the warm start's, spent only by the
     * configurations that use one (the CSV's epsilon_sum says what each spent).
     */
    private String label(double epsilonBar) {
        return String.format(Locale.ROOT, "epsilon-bar %s (+%.3g)", epsilonBar, epsilonBar * settings.warmStartShare());
    }

    private static String fmt(double accuracy) {
        return String.format(Locale.ROOT, "%.3f", accuracy);
    }

    /**
     * The eavesdropper's membership attack (attacks.membership) at the largest p: it inverts every broadcast of a run
     * from zero into the sender's local gradient and scores each agent's training records against as many of its test
     * records; the mean AUC over the agents for non-private CD and for private CD at every epsilon-bar (each with the
     * mu and T_i tuned for it; from zero, since the attack assumes a public start).
     */
    private void membership(BelletProblem b, double mu, Choice[] choices, PrintWriter console) throws IOException {
        List<AgentData> tests = test(b);
        StringBuilder csv = new StringBuilder("method,epsilon_bar,mu,releases_per_agent,mean_auc,accuracy\n");
        PersonalizedProblem cdProblem = problem(b, mu);
        int n = cdProblem.agentCount();
        CoordinateDescentRun cd = new CoordinateDescentRun(RunSettings.empty(), null, cdProblem, cdProblem.zeros(),
                schedule(n, (long) settings.ticksPerAgent() * n, settings.seed()), null, null);
        double cdAuc = attackedAuc(cd, tests);
        csv.append(String.format(Locale.ROOT, "cd,inf,%s,%d,%.4f,%.4f%n", mu, settings.ticksPerAgent(), cdAuc,
                PersonalizedProblem.meanAccuracy(tests, cd.models())));
        List<Double> bars = settings.epsilonBars();
        double[] x = bars.stream().mapToDouble(Double::doubleValue).toArray();
        double[] auc = new double[x.length];
        for (int e = 0; e < x.length; e++) {
            Choice c = choices[e];
            PersonalizedProblem problem = privateProblem(b, c.mu());
            CoordinateDescentRun run = privateRun(problem, problem.zeros(), x[e], c.releases(), 0, settings.seed() * 1000);
            auc[e] = attackedAuc(run, tests);
            csv.append(String.format(Locale.ROOT, "private-cd,%s,%s,%d,%.4f,%.4f%n", x[e], c.mu(), c.releases(), auc[e],
                    PersonalizedProblem.meanAccuracy(tests, run.models())));
        }
        AtomicFiles.replace(written.file("membership.csv"), csv.toString());
        double[] logX = java.util.Arrays.stream(x).map(Math::log10).toArray();
        double[] flat = new double[x.length];
        java.util.Arrays.fill(flat, cdAuc);
        double[] chance = new double[x.length];
        java.util.Arrays.fill(chance, 0.5);
        Plots.write(written.file("membership.png"), Figure.of(new Panel("Eavesdropper's membership attack (p = "
                + cdProblem.dimension() + "): mean AUC over the agents", "log10 epsilon-bar", "AUC", List.of(
                new Series("private CD", logX, auc), new Series("non-private CD", logX, flat), new Series("guessing", logX, chance)),
                false, true)));
        console.printf(Locale.ROOT, "membership attack: non-private CD AUC %.3f; private CD %s%n", cdAuc,
                java.util.Arrays.toString(auc));
    }

    /** Runs {@code run} to the end under the eavesdropper and returns its mean membership AUC over the agents. */
    private static double attackedAuc(CoordinateDescentRun run, List<AgentData> tests) {
        PersonalizedProblem problem = run.problem();
        BroadcastInverter inverter = new BroadcastInverter(problem, problem.zeros());
        run.tapBroadcasts(inverter);
        run.runToEnd();
        return GradientAlignmentMembership.meanAuc(inverter, problem, tests);
    }

    private static double[] column(List<double[]> rows, int c) {
        return rows.stream().mapToDouble(r -> r[c]).toArray();
    }

    /** Figures 1, 2a, 2b and 3 at the largest dimension. */
    private void atLargest(BelletProblem b, double mu, double epsilonBar, Choice chosen, double localAccuracy, PrintWriter console)
            throws IOException {
        double privateMu = chosen.mu();
        // Fig 2a and 2b: accuracy against releases per agent, with and without the warm start.
        StringBuilder sweep = new StringBuilder("epsilon_bar,releases_per_agent,warm_start,accuracy,objective,epsilon_sum,epsilon_advanced\n");
        List<Integer> grid = settings.sweepReleases();
        double[] x = grid.stream().mapToDouble(Integer::doubleValue).toArray();
        double[] warm = new double[x.length];
        double[] cold = new double[x.length];
        for (int k = 0; k < x.length; k++) {
            Outcome w = privateCd(b, epsilonBar, new Choice(privateMu, grid.get(k), true), settings.noiseSeeds());
            Outcome c = privateCd(b, epsilonBar, new Choice(privateMu, grid.get(k), false), settings.noiseSeeds());
            warm[k] = w.accuracy();
            cold[k] = c.accuracy();
            // spent epsilons are rounded up, so that the file never shows less than was spent
            sweep.append(String.format(Locale.ROOT, "%s,%d,true,%.6f,%.8g,%s,%s%n", epsilonBar, grid.get(k), w.accuracy(), w.objective(),
                    EpsilonFormat.upwardSignificant(w.epsilonSum(), 6), EpsilonFormat.upwardSignificant(w.epsilonAdvanced(), 6)));
            sweep.append(String.format(Locale.ROOT, "%s,%d,false,%.6f,%.8g,%s,%s%n", epsilonBar, grid.get(k), c.accuracy(), c.objective(),
                    EpsilonFormat.upwardSignificant(c.epsilonSum(), 6), EpsilonFormat.upwardSignificant(c.epsilonAdvanced(), 6)));
        }
        AtomicFiles.replace(written.file("releases.csv"), sweep.toString());
        double[] local = new double[x.length];
        java.util.Arrays.fill(local, localAccuracy);
        Plots.write(written.file("accuracy-vs-releases.png"), Figure.of(new Panel("Private CD at " + label(epsilonBar)
                + ": accuracy against releases per agent (mu " + privateMu + ")", "releases per agent T_i", "mean test accuracy", List.of(
                new Series("with the private warm start", x, warm), new Series("from zero", x, cold), new Series("local", x, local)),
                false, true)));

        // Fig 3: every agent's gain over its local model against its data size.
        Outcome dp = privateCd(b, epsilonBar, chosen, settings.noiseSeeds());
        PersonalizedProblem problem = problem(b, privateMu);
        INDArray localModels = local(b);
        List<AgentData> tests = test(b);
        StringBuilder gains = new StringBuilder("agent,train_size,local_accuracy,private_cd_accuracy,gain\n");
        double[] sizes = new double[tests.size()];
        double[] gain = new double[tests.size()];
        for (int i = 0; i < tests.size(); i++) {
            double l = tests.get(i).accuracy(localModels.getRow(i));
            double d = tests.get(i).accuracy(dp.models().getRow(i));
            sizes[i] = problem.agent(i).size();
            gain[i] = d - l;
            gains.append(String.format(Locale.ROOT, "%d,%d,%.4f,%.4f,%.4f%n", i, problem.agent(i).size(), l, d, d - l));
        }
        AtomicFiles.replace(written.file("gain-per-agent.csv"), gains.toString());
        Plots.write(written.file("gain-vs-size.png"), Figure.of(new Panel("Private CD's gain over the local model, per agent ("
                + label(epsilonBar) + ")",
                "training examples m_i", "test accuracy gain", List.of(new Series("agents", sizes, gain)), false, true)));

        // Fig 1: non-private CD against the gossip ADMM of Vanhaesebrouck et al. (10 local steps), and model propagation,
        // all from the local models, against iterations and transmitted p-vectors.
        PersonalizedProblem cdProblem = problem(b, mu);
        int n = cdProblem.agentCount();
        long ticks = (long) settings.ticksPerAgent() * n;
        List<String> names = List.of("cd", "admm", "model-propagation");
        List<String> labels = List.of("CD", "ADMM (rho " + ADMM_RHO + ", 10 local steps)", "model propagation");
        List<PersonalizedRun> runs = List.of(
                new CoordinateDescentRun(RunSettings.empty(), null, cdProblem, local(b), schedule(n, ticks, settings.seed()), null, null),
                new GossipAdmmRun(RunSettings.empty(), cdProblem, local(b), GossipAdmmRun.drawSchedule(cdProblem, ticks,
                        NoiseKind.SEEDED.streams(n, settings.seed()).sampling(0, 1)), ADMM_RHO, 10),
                new ModelPropagationRun(RunSettings.empty(), cdProblem, local(b), schedule(n, ticks, settings.seed())));
        StringBuilder curve = new StringBuilder("algorithm,iterations,vectors_sent,objective,accuracy\n");
        List<List<double[]>> curves = new ArrayList<>();
        runs.forEach(r -> curves.add(new ArrayList<>()));
        for (long t = 0; t <= ticks; t += n) {
            for (int a = 0; a < runs.size(); a++) {
                PersonalizedRun run = runs.get(a);
                if (t > 0) {
                    run.run(n);
                }
                double accuracy = PersonalizedProblem.meanAccuracy(tests, run.models());
                double objective = cdProblem.objective(run.models());
                curves.get(a).add(new double[]{t, run.messages(), objective, accuracy});
                curve.append(String.format(Locale.ROOT, "%s,%d,%d,%.10g,%.4f%n", names.get(a), t, run.messages(), objective, accuracy));
            }
        }
        AtomicFiles.replace(written.file("curves.csv"), curve.toString());
        List<Panel> panels = new ArrayList<>();
        String[][] axes = {{"objective Q against iterations", "iterations", "Q"}, {"objective Q against transmitted vectors",
                "p-vectors sent", "Q"}, {"accuracy against iterations", "iterations", "mean test accuracy"},
                {"accuracy against transmitted vectors", "p-vectors sent", "mean test accuracy"}};
        for (int k = 0; k < axes.length; k++) {
            int xColumn = k % 2;
            int yColumn = k < 2 ? 2 : 3;
            List<Series> series = new ArrayList<>();
            for (int a = 0; a < runs.size(); a++) {
                series.add(new Series(labels.get(a), column(curves.get(a), xColumn), column(curves.get(a), yColumn)));
            }
            panels.add(Panel.of(axes[k][0], axes[k][1], axes[k][2], series));
        }
        Plots.write(written.file("cd-curves.png"), new Figure("Non-private CD, gossip ADMM and model propagation (p = "
                + problem.dimension() + ", mu " + mu + ", from the local models)", panels, true));
        console.printf(Locale.ROOT, "p = %d: releases sweep, per-agent gains and curves written%n", problem.dimension());
    }
}
