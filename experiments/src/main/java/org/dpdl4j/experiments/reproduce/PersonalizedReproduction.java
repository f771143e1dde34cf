package org.dpdl4j.experiments.reproduce;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpdl4j.data.synthetic.BelletAgent;
import org.dpdl4j.data.synthetic.BelletCollaborativeClassification;
import org.dpdl4j.data.synthetic.BelletConfig;
import org.dpdl4j.data.synthetic.BelletProblem;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.Figure;
import org.dpdl4j.experiments.report.Panel;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.Series;
import org.dpdl4j.experiments.report.TerminalTable;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.protocol.personalized.AgentData;
import org.dpdl4j.protocol.personalized.BudgetAllocation;
import org.dpdl4j.protocol.personalized.CoordinateDescentRun;
import org.dpdl4j.protocol.personalized.LocalModels;
import org.dpdl4j.protocol.personalized.ModelPropagationRun;
import org.dpdl4j.protocol.personalized.PersonalizedProblem;
import org.dpdl4j.protocol.personalized.ReleaseMechanism;
import org.dpdl4j.protocol.personalized.ReleasePlan;
import org.dpdl4j.protocol.personalized.WakeSchedule;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Bellet et al.'s collaborative linear classification (spec 6.6): purely local models, non-private coordinate
 * descent, and private coordinate descent (Laplace, equal split of epsilon-bar, after a private warm start) for every
 * dimension p, with mu (and the private runs' releases per agent and whether to warm-start) tuned on a validation
 * instance drawn with another seed; then, at the largest p, accuracy against the releases per agent, the warm start's effect, every agent's gain
 * over its local model against its data size, and the objective and accuracy of CD and model propagation against ticks
 * and transmitted models. Features are scaled to L1 norm 1, so the logistic loss is 1-Lipschitz in L1 and in L2.
 */
public final class PersonalizedReproduction {
    private static final double LIPSCHITZ = 1.0;

    /**
     * @param dims          the dimensions p
     * @param agents        n
     * @param epsilonBar    every agent's budget for coordinate descent
     * @param warmStart     the warm start's epsilon (output perturbation)
     * @param deltaBar      the advanced composition's slack
     * @param mus           mu candidates
     * @param releases      releases per agent T_i tried by the private runs
     * @param ticksPerAgent non-private CD and model propagation run this many ticks per agent
     * @param noiseSeeds    private runs are averaged over this many noise seeds
     */
    public record Settings(List<Integer> dims, int agents, double epsilonBar, double warmStart, double deltaBar, List<Double> mus,
                           List<Integer> releases, int ticksPerAgent, int noiseSeeds, long seed, Path out) {
        public static Settings full(Path out) {
            return new Settings(List.of(2, 5, 10, 20, 50, 100), 100, 0.15, 0.05, Math.exp(-5), List.of(0.001, 0.01, 0.1, 1.0, 10.0, 100.0),
                    List.of(1, 2, 5, 10, 20, 50), 100, 3, 1, out);
        }

        public static Settings quick(Path out) {
            return new Settings(List.of(2, 20), 30, 0.15, 0.05, Math.exp(-5), List.of(0.1, 1.0, 10.0), List.of(1, 2, 10), 40, 1, 1, out);
        }
    }

    private record Outcome(double accuracy, double objective, double epsilonSum, double epsilonAdvanced, INDArray models) {
    }

    private final Settings settings;

    public PersonalizedReproduction(Settings settings) {
        this.settings = settings;
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

    /** Private CD with T_i releases per agent, after a private warm start or from zero, averaged over the noise seeds. */
    private Outcome privateCd(BelletProblem b, double mu, int releases, boolean warm) {
        PersonalizedProblem problem = problem(b, mu);
        int n = problem.agentCount();
        double accuracy = 0;
        double objective = 0;
        double sum = 0;
        double advanced = 0;
        INDArray models = null;
        INDArray local = warm ? LocalModels.solve(problem) : null;
        for (int r = 0; r < settings.noiseSeeds(); r++) {
            long seed = settings.seed() * 1000 + r;
            NoiseStreams streams = NoiseKind.SEEDED.streams(n, seed);
            INDArray start = problem.zeros();
            if (warm) {
                INDArray noisyLocal = LocalModels.perturb(problem, local, settings.warmStart(), LIPSCHITZ, streams);
                ModelPropagationRun mp = new ModelPropagationRun(RunSettings.empty(), problem, noisyLocal,
                        schedule(n, (long) settings.ticksPerAgent() * n, seed + 7));
                mp.runToEnd();
                start = mp.models();
            }
            int[] schedule = schedule(n, (long) releases * n, seed);
            ReleasePlan plan = ReleasePlan.of(problem, schedule, ReleaseMechanism.LAPLACE, LIPSCHITZ, settings.epsilonBar(),
                    BudgetAllocation.EQUAL_SPLIT, releases, 0, settings.deltaBar(), warm ? settings.warmStart() : 0);
            RunLedger ledger = new RunLedger(new LedgerAccounting(AccountantFactory.standard(), NeighbouringRelation.REPLACE_ONE),
                    PrivacyBudget.unlimited(1e-5), false);
            CoordinateDescentRun run = new CoordinateDescentRun(RunSettings.empty(), ledger, problem, start, schedule, plan, streams);
            run.runToEnd();
            models = run.models();
            accuracy += PersonalizedProblem.meanAccuracy(test(b), models);
            objective += run.objective();
            double worstSum = 0;
            double worstAdvanced = 0;
            for (int i = 0; i < n; i++) {
                worstSum = Math.max(worstSum, run.epsilonSum(i));
                worstAdvanced = Math.max(worstAdvanced, run.epsilonAdvanced(i));
            }
            sum = Math.max(sum, worstSum);
            advanced = Math.max(advanced, worstAdvanced);
        }
        int k = settings.noiseSeeds();
        return new Outcome(accuracy / k, objective / k, sum, advanced, models);
    }

    public int run(PrintWriter console) throws IOException {
        Files.createDirectories(settings.out());
        long begin = System.nanoTime();
        StringBuilder csv = new StringBuilder("dim,method,mu,releases_per_agent,accuracy,objective,epsilon_sum,epsilon_advanced,delta_bar\n");
        TerminalTable table = new TerminalTable("Personalized learning: mean test accuracy over the agents", "p", "local", "CD",
                "private CD", "mu (CD / private)", "T_i", "warm start", "epsilon (sum / advanced)");
        List<double[]> byDim = new ArrayList<>();
        int largest = settings.dims().get(settings.dims().size() - 1);
        double[] chosenAtLargest = new double[2];
        for (int p : settings.dims()) {
            BelletProblem validation = instance(p, settings.seed() + 1000 + p);
            BelletProblem evaluation = instance(p, settings.seed() + p);
            PersonalizedProblem any = problem(evaluation, 1.0);
            double localAccuracy = PersonalizedProblem.meanAccuracy(test(evaluation), LocalModels.solve(any));
            double bestMu = settings.mus().get(0);
            double best = -1;
            for (double mu : settings.mus()) {
                double a = nonPrivate(validation, mu).accuracy();
                if (a > best) {
                    best = a;
                    bestMu = mu;
                }
            }
            double privateMu = settings.mus().get(0);
            int privateReleases = settings.releases().get(0);
            boolean privateWarm = true;
            best = -1;
            for (double mu : settings.mus()) {
                for (int t : settings.releases()) {
                    for (boolean warm : new boolean[]{true, false}) {
                        double a = privateCd(validation, mu, t, warm).accuracy();
                        if (a > best) {
                            best = a;
                            privateMu = mu;
                            privateReleases = t;
                            privateWarm = warm;
                        }
                    }
                }
            }
            Outcome cd = nonPrivate(evaluation, bestMu);
            Outcome dp = privateCd(evaluation, privateMu, privateReleases, privateWarm);
            csv.append(String.format(Locale.ROOT, "%d,local,,,%.6f,,0,0,%n", p, localAccuracy));
            csv.append(String.format(Locale.ROOT, "%d,cd,%s,%d,%.6f,%.8g,inf,inf,%n", p, bestMu, settings.ticksPerAgent(), cd.accuracy(),
                    cd.objective()));
            csv.append(String.format(Locale.ROOT, "%d,%s,%s,%d,%.6f,%.8g,%.6g,%.6g,%.6g%n", p,
                    privateWarm ? "private-cd-warm-start" : "private-cd", privateMu, privateReleases,
                    dp.accuracy(), dp.objective(), dp.epsilonSum(), dp.epsilonAdvanced(), settings.deltaBar()));
            table.addRow(p, String.format(Locale.ROOT, "%.3f", localAccuracy), String.format(Locale.ROOT, "%.3f", cd.accuracy()),
                    String.format(Locale.ROOT, "%.3f", dp.accuracy()), bestMu + " / " + privateMu, privateReleases,
                    privateWarm ? "yes" : "no", String.format(Locale.ROOT, "%.3g / %.3g", dp.epsilonSum(), dp.epsilonAdvanced()));
            byDim.add(new double[]{p, localAccuracy, cd.accuracy(), dp.accuracy()});
            console.printf(Locale.ROOT, "p = %d: local %.3f, CD %.3f (mu %s), private CD %.3f (mu %s, T_i %d, epsilon %.3g) [%.0f s]%n", p,
                    localAccuracy, cd.accuracy(), bestMu, dp.accuracy(), privateMu, privateReleases, dp.epsilonSum(),
                    (System.nanoTime() - begin) / 1e9);
            console.flush();
            if (p == largest) {
                chosenAtLargest[0] = privateMu;
                chosenAtLargest[1] = privateReleases;
                atLargest(evaluation, bestMu, privateMu, privateReleases, localAccuracy, console);
            }
        }
        AtomicFiles.replace(settings.out().resolve("results.csv"), csv.toString());
        AtomicFiles.replace(settings.out().resolve("table.txt"), table.render());
        console.print(table.render());
        double[] dims = byDim.stream().mapToDouble(r -> r[0]).toArray();
        Plots.write(settings.out().resolve("accuracy-vs-dimension.png"), Figure.of(new Panel("Mean test accuracy against p", "p",
                "accuracy", List.of(new Series("local", dims, column(byDim, 1)), new Series("CD (non-private)", dims, column(byDim, 2)),
                new Series(String.format(Locale.ROOT, "private CD (epsilon %s + %s)", settings.epsilonBar(), settings.warmStart()), dims,
                        column(byDim, 3))), false, true)));
        console.printf(Locale.ROOT, "wrote %s in %.1f minutes%n", settings.out(), (System.nanoTime() - begin) / 60e9);
        console.flush();
        return 0;
    }

    private static double[] column(List<double[]> rows, int c) {
        return rows.stream().mapToDouble(r -> r[c]).toArray();
    }

    /** Figures 1, 2a, 2b and 3 at the largest dimension. */
    private void atLargest(BelletProblem b, double mu, double privateMu, int privateReleases, double localAccuracy, PrintWriter console)
            throws IOException {
        // Fig 2a and 2b: accuracy against releases per agent, with and without the warm start.
        StringBuilder sweep = new StringBuilder("releases_per_agent,warm_start,accuracy,objective,epsilon_sum,epsilon_advanced\n");
        List<Integer> grid = settings.releases();
        double[] x = grid.stream().mapToDouble(Integer::doubleValue).toArray();
        double[] warm = new double[x.length];
        double[] cold = new double[x.length];
        for (int k = 0; k < x.length; k++) {
            Outcome w = privateCd(b, privateMu, grid.get(k), true);
            Outcome c = privateCd(b, privateMu, grid.get(k), false);
            warm[k] = w.accuracy();
            cold[k] = c.accuracy();
            sweep.append(String.format(Locale.ROOT, "%d,true,%.6f,%.8g,%.6g,%.6g%n", grid.get(k), w.accuracy(), w.objective(), w.epsilonSum(),
                    w.epsilonAdvanced()));
            sweep.append(String.format(Locale.ROOT, "%d,false,%.6f,%.8g,%.6g,%.6g%n", grid.get(k), c.accuracy(), c.objective(), c.epsilonSum(),
                    c.epsilonAdvanced()));
        }
        AtomicFiles.replace(settings.out().resolve("releases.csv"), sweep.toString());
        double[] local = new double[x.length];
        java.util.Arrays.fill(local, localAccuracy);
        Plots.write(settings.out().resolve("accuracy-vs-releases.png"), Figure.of(new Panel("Private CD: accuracy against releases per"
                + " agent (mu " + privateMu + ")", "releases per agent T_i", "mean test accuracy", List.of(
                new Series("with the private warm start", x, warm), new Series("from zero", x, cold), new Series("local", x, local)),
                false, true)));

        // Fig 3: every agent's gain over its local model against its data size.
        Outcome dp = privateCd(b, privateMu, privateReleases, true);
        PersonalizedProblem problem = problem(b, privateMu);
        INDArray localModels = LocalModels.solve(problem);
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
        AtomicFiles.replace(settings.out().resolve("gain-per-agent.csv"), gains.toString());
        Plots.write(settings.out().resolve("gain-vs-size.png"), Figure.of(new Panel("Private CD's gain over the local model, per agent",
                "training examples m_i", "test accuracy gain", List.of(new Series("agents", sizes, gain)), false, true)));

        // Fig 1: non-private CD and model propagation against ticks and transmitted models.
        PersonalizedProblem cdProblem = problem(b, mu);
        int n = cdProblem.agentCount();
        long ticks = (long) settings.ticksPerAgent() * n;
        CoordinateDescentRun cd = new CoordinateDescentRun(RunSettings.empty(), null, cdProblem, cdProblem.zeros(),
                schedule(n, ticks, settings.seed()), null, null);
        ModelPropagationRun mp = new ModelPropagationRun(RunSettings.empty(), cdProblem, LocalModels.solve(cdProblem),
                schedule(n, ticks, settings.seed()));
        StringBuilder curve = new StringBuilder("algorithm,ticks,messages,objective,accuracy\n");
        List<double[]> cdCurve = new ArrayList<>();
        List<double[]> mpCurve = new ArrayList<>();
        for (long t = 0; t <= ticks; t += n) {
            if (t > 0) {
                cd.run(n);
                mp.run(n);
            }
            double cdAccuracy = PersonalizedProblem.meanAccuracy(tests, cd.models());
            double mpAccuracy = PersonalizedProblem.meanAccuracy(tests, mp.models());
            double objective = cd.objective();
            cdCurve.add(new double[]{t, cd.messages(), objective, cdAccuracy});
            mpCurve.add(new double[]{t, mp.messages(), cdProblem.objective(mp.models()), mpAccuracy});
            curve.append(String.format(Locale.ROOT, "cd,%d,%d,%.10g,%.4f%n", t, cd.messages(), objective, cdAccuracy));
            curve.append(String.format(Locale.ROOT, "model-propagation,%d,%d,%.10g,%.4f%n", t, mp.messages(),
                    cdProblem.objective(mp.models()), mpAccuracy));
        }
        AtomicFiles.replace(settings.out().resolve("curves.csv"), curve.toString());
        Plots.write(settings.out().resolve("cd-curves.png"), new Figure("Non-private CD and model propagation (p = "
                + problem.dimension() + ", mu " + mu + ")", List.of(
                Panel.of("objective Q against ticks", "ticks", "Q", List.of(new Series("CD", column(cdCurve, 0), column(cdCurve, 2)),
                        new Series("model propagation", column(mpCurve, 0), column(mpCurve, 2)))),
                Panel.of("accuracy against transmitted models", "models sent", "mean test accuracy", List.of(
                        new Series("CD", column(cdCurve, 1), column(cdCurve, 3)),
                        new Series("model propagation", column(mpCurve, 1), column(mpCurve, 3))))), true));
        console.printf(Locale.ROOT, "p = %d: releases sweep, per-agent gains and curves written%n", problem.dimension());
    }
}
