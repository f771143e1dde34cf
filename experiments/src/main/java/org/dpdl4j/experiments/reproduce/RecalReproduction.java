package org.dpdl4j.experiments.reproduce;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.covtype.CovtypeTask;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.Figure;
import org.dpdl4j.experiments.report.Panel;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.Series;
import org.dpdl4j.experiments.report.TerminalTable;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.models.LeastSquaresModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.FeatureNormBound;
import org.dpdl4j.protocol.recal.CompositeProblem;
import org.dpdl4j.protocol.recal.CompositeRun;
import org.dpdl4j.protocol.recal.Penalty;
import org.dpdl4j.protocol.recal.PrimalDualAlgorithm;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.protocol.recal.PrimalDualRunBuilder;
import org.dpdl4j.protocol.recal.ProximalSolver;
import org.dpdl4j.protocol.recal.RelayRecal;
import org.dpdl4j.protocol.recal.SmoothLoss;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * {@code reproduce recal}: the shape of DP-RECAL's Table V and Figures 2-4 (spec 5.6). The distributed Lasso with
 * one-hot targets on covtype (55,500 rows drawn from the 93k subset, 7 classes) and MNIST (60,000 x 784, pixels in
 * [0, 1]), split equally over 8 agents on a ring and a complete graph; the reference {@code x*} from the
 * centralised proximal solver (certified); RECAL, and at each target epsilon DP-RECAL (K relay iterations,
 * LCI about K/8), DP-PG-EXTRA and DP-NIDS (K/8 synchronous iterations, so every agent publishes about as often),
 * all with the same noise schedule and accountant; the relative error against iterations and messages, the
 * messages, the time and the epsilon the ledger spent beside every row.
 */
public final class RecalReproduction {

    /**
     * @param datasets          covtype and/or mnist
     * @param epsilons          target epsilons of the private algorithms
     * @param delta             delta
     * @param zeta              the noise attenuation of every private algorithm
     * @param lambdaFraction    the l1 weight as a fraction of lambda_max = ||sum_i A_i^T B_i||_inf (0 solves the all-zero model)
     * @param relayIterations   K of the relay algorithms; the synchronous ones run K / agents
     * @param longRunFactor     non-private RECAL also runs until relative error 1e-10, for at most this many times K
     * @param covtypeRows       rows drawn from the covtype subset
     * @param mnistRows         rows of MNIST's training set used
     * @param clip              G_rec per data set name (covtype, mnist)
     * @param seed              seed of the draws, the split, the baton and the (seeded) noise
     * @param dataDir           the data directory
     * @param out               the output directory
     * @param accountant        how the private algorithms' noise is calibrated and priced ({@code AccountantFactory.NAMES})
     * @param featureNormBound  a public bound on every record's feature norm that the private algorithms take their step
     *                          sizes from ({@code PrimalDualRunBuilder.featureNormBound}), or null for each agent's own
     *                          smoothness (the paper's choice, which the ledger does not price)
     */
    public record Settings(List<String> datasets, List<Double> epsilons, double delta, double zeta, double lambdaFraction,
                           long relayIterations, long longRunFactor, int covtypeRows, int mnistRows, java.util.Map<String, Double> clip, long seed,
                           DataDirectory dataDir, Path out, String accountant, Double featureNormBound) {
        public Settings {
            AccountantFactory.named(accountant);   // refuses an unknown name before anything runs
            for (String d : datasets) {
                if (!d.equals("covtype") && !d.equals("mnist")) {
                    throw new IllegalArgumentException("unknown data set '" + d + "' in --datasets; use covtype and/or mnist");
                }
            }
            if (featureNormBound != null) {
                FeatureNormBound.require(featureNormBound);
            }
        }

        /** These settings with the private algorithms' steps from the public bound {@code b}. */
        public Settings withFeatureNormBound(double b) {
            return new Settings(datasets, epsilons, delta, zeta, lambdaFraction, relayIterations, longRunFactor, covtypeRows,
                    mnistRows, clip, seed, dataDir, out, accountant, b);
        }

        /** The committed reproduction's grid, calibrated and priced by {@code accountant}. */
        public static Settings full(DataDirectory dataDir, Path out, String accountant) {
            return new Settings(List.of("covtype", "mnist"), List.of(1.0, 10.0), 1e-5, 0.99, 0.05, 4800, 50, 55_500, 60_000,
                    java.util.Map.of("covtype", 1.0, "mnist", 5.0), 1, dataDir, out, accountant, null);
        }

        /** A smoke run: a covtype sample, fewer iterations, one epsilon. */
        public static Settings quick(DataDirectory dataDir, Path out, String accountant) {
            return new Settings(List.of("covtype"), List.of(10.0), 1e-5, 0.99, 0.05, 960, 2, 4_000, 0,
                    java.util.Map.of("covtype", 1.0), 1, dataDir, out, accountant, null);
        }
    }

    private static final int AGENTS = 8;
    private static final int CURVE_POINTS = 240;
    /** The long non-private run stops at this relative error (or at its cap). */
    private static final double TARGET_ERROR = 1e-10;
    /** The long non-private run's name in the tables. */
    private static final String LONG_RUN = "recal-to-1e-10";

    private final Settings settings;
    private final boolean fresh;
    private final WrittenFiles written;

    /**
     * @param fresh discard the runs an interrupted reproduction left in the output directory instead of going on from
     *              there ({@link ReproductionJournal})
     */
    public RecalReproduction(Settings settings, boolean fresh) {
        this.settings = settings;
        this.fresh = fresh;
        this.written = new WrittenFiles(settings.out());
    }

    public int run(PrintWriter console) throws IOException {
        // claimed like every --out: locked, private, and never another command's directory
        try (RunDirectory claim = RunDirectory.claim(settings.out(), "dpdl4j reproduce recal", "dpdl4j reproduce recal",
                RunDirectory.Reuse.SAME_COMMAND)) {
            try (ReproductionJournal journal = ReproductionJournal.open(settings.out(), shared(settings), fresh)) {
                if (journal.size() > 0) {
                    console.println("Going on from the " + journal.size() + " runs an interrupted reproduction finished ("
                            + settings.out().resolve(ReproductionJournal.FILE) + "; --fresh runs them again)");
                }
                runIn(console, journal);
                journal.delete();   // every run is in the files now
            }
            return 0;
        }
    }

    /** What every run depends on and no row records: a journal is continued only with the same. */
    static java.util.Map<String, String> shared(Settings settings) {
        java.util.Map<String, String> s = new java.util.TreeMap<>();
        s.put("delta", Double.toString(settings.delta()));
        s.put("zeta", Double.toString(settings.zeta()));
        s.put("lambda_fraction", Double.toString(settings.lambdaFraction()));
        s.put("relay_iterations", Long.toString(settings.relayIterations()));
        s.put("long_run_factor", Long.toString(settings.longRunFactor()));
        s.put("covtype_rows", Integer.toString(settings.covtypeRows()));
        s.put("mnist_rows", Integer.toString(settings.mnistRows()));
        s.put("clip", new java.util.TreeMap<>(settings.clip()).toString());
        s.put("seed", Long.toString(settings.seed()));
        s.put("accountant", settings.accountant());
        s.put("feature_norm_bound", String.valueOf(settings.featureNormBound()));
        return s;
    }

    private void runIn(PrintWriter console, ReproductionJournal journal) throws IOException {
        console.println(NoiseNotice.of(NoiseKind.SEEDED, null));
        List<RecalRow> rows = new ArrayList<>();
        StringBuilder reference = new StringBuilder("dataset,rows,features,classes,lambda_fraction,lambda,solver_iterations,optimality,certified,nonzeros\n");
        for (String dataset : settings.datasets()) {
            List<NodeData> agents = agents(dataset);
            CompositeProblem unpenalized = CompositeProblem.of(agents, SmoothLoss.LEAST_SQUARES, Penalty.none(), false);
            double lambdaMax = new ProximalSolver(unpenalized).gradient(unpenalized.zeros()).amaxNumber().doubleValue();
            double lambda = settings.lambdaFraction() * lambdaMax;
            CompositeProblem problem = CompositeProblem.of(agents, SmoothLoss.LEAST_SQUARES, Penalty.l1(lambda), false);
            long start = System.nanoTime();
            ProximalSolver.Solution star = new ProximalSolver(problem).solve(1e-15, 500_000);
            long nonzeros = java.util.Arrays.stream(star.x().data().asDouble()).filter(v -> v != 0).count();
            console.printf(Locale.ROOT, "%s: %d agents x %d rows, lambda = %.6g (%.3g lambda_max), x* in %d iterations (%.1f s),"
                            + " optimality %.2e, %s, %d nonzeros%n", dataset, AGENTS, agents.get(0).size(), lambda,
                    settings.lambdaFraction(), star.iterations(), (System.nanoTime() - start) / 1e9, star.optimality(),
                    star.certified() ? "certified" : "NOT certified", nonzeros);
            console.flush();
            reference.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%s,%s,%d,%s,%s,%d%n", dataset, problem.records(), problem.rows(),
                    problem.columns(), settings.lambdaFraction(), lambda, star.iterations(), star.optimality(), star.certified(), nonzeros));
            for (String graphName : List.of("ring", "complete")) {
                Graph graph = graphName.equals("ring") ? Topologies.ring(AGENTS) : Topologies.complete(AGENTS);
                rows.add(finishedOr(journal, console, dataset, graphName, PrimalDualAlgorithm.RECAL.cliName(), Double.NaN,
                        () -> run(dataset, graphName, graph, problem, star.x(), PrimalDualAlgorithm.RECAL, Double.NaN, console)));
                rows.add(finishedOr(journal, console, dataset, graphName, LONG_RUN, Double.NaN,
                        () -> untilAccurate(dataset, graphName, graph, problem, star.x(), console)));
                for (double eps : settings.epsilons()) {
                    for (PrimalDualAlgorithm a : List.of(PrimalDualAlgorithm.DP_RECAL, PrimalDualAlgorithm.DP_PG_EXTRA,
                            PrimalDualAlgorithm.DP_NIDS)) {
                        rows.add(finishedOr(journal, console, dataset, graphName, a.cliName(), eps,
                                () -> run(dataset, graphName, graph, problem, star.x(), a, eps, console)));
                    }
                }
            }
        }
        AtomicFiles.replace(written.file("reference.csv"), reference.toString());
        write(rows, console);
    }

    /** The run an interrupted reproduction finished, from the journal, or else this one's, run now and journaled. */
    private static RecalRow finishedOr(ReproductionJournal journal, PrintWriter console, String dataset, String graph, String algorithm,
                                       double target, java.util.function.Supplier<RecalRow> run) {
        java.util.Optional<RecalRow> earlier = journal.finished(RecalRow.key(dataset, graph, algorithm, target), RecalRow::fromJson);
        if (earlier.isPresent()) {
            console.printf(Locale.ROOT, "  %-8s %-8s %-12s eps %-6s finished earlier (%s)%n", dataset, graph, algorithm,
                    Double.isNaN(target) ? "-" : String.valueOf(target), ReproductionJournal.FILE);
            console.flush();
            return earlier.get();
        }
        RecalRow row = run.get();
        journal.record(row.toJson());
        return row;
    }

    private List<NodeData> agents(String dataset) throws IOException {
        DataDirectory dir = settings.dataDir();
        LabeledData data = switch (dataset) {
            case "covtype" -> {
                LabeledData all = Datasets.covtype93k(dir, CovtypeTask.SEVEN_CLASS).shuffled(settings.seed());
                yield all.subset(java.util.stream.IntStream.range(0, Math.min(settings.covtypeRows(), all.size())).toArray());
            }
            case "mnist" -> {
                LabeledData all = Datasets.mnist(dir, PixelScaling.UNIT_INTERVAL).train().shuffled(settings.seed());
                yield all.subset(java.util.stream.IntStream.range(0, Math.min(settings.mnistRows(), all.size())).toArray());
            }
            default -> throw new IllegalArgumentException("unknown data set '" + dataset + "'; use covtype or mnist");
        };
        return equalShares(data.features().castTo(DataType.DOUBLE), data.labelMatrix(LabelEncoding.ONE_HOT).castTo(DataType.DOUBLE),
                AGENTS);
    }

    /** Rows split in order into {@code agents} equal shares (the remainder dropped), as the Lasso workload of spec 5.6. */
    public static List<NodeData> equalShares(INDArray x, INDArray y, int agents) {
        int per = (int) (x.size(0) / agents);
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < agents; i++) {
            var rows = org.nd4j.linalg.indexing.NDArrayIndex.interval((long) i * per, (long) (i + 1) * per);
            out.add(new NodeData(x.get(rows, org.nd4j.linalg.indexing.NDArrayIndex.all()).dup(),
                    y.get(rows, org.nd4j.linalg.indexing.NDArrayIndex.all()).dup()));
        }
        return out;
    }

    /** Non-private RECAL continued until its relative error is at most 1e-10, or the iteration cap. */
    private RecalRow untilAccurate(String dataset, String graphName, Graph graph, CompositeProblem problem, INDArray star, PrintWriter console) {
        long cap = settings.relayIterations() * settings.longRunFactor();
        CompositeRun run = PrimalDualRunBuilder.of(PrimalDualAlgorithm.RECAL).model(template(problem)).problem(problem).graph(graph)
                .iterations(cap).noiseKind(NoiseKind.SEEDED).seed(settings.seed()).build();
        List<double[]> curve = new ArrayList<>();
        curve.add(new double[]{0, 0, 1.0});
        long start = System.nanoTime();
        double error = 1;
        while (!run.isFinished() && error > TARGET_ERROR) {
            run.run(Math.min(settings.relayIterations() / 8, run.plannedSteps() - run.completedSteps()));
            error = run.relativeError(star);
            curve.add(new double[]{run.completedSteps(), run.messages(), error});
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        RecalRow row = new RecalRow(dataset, graphName, LONG_RUN, Double.NaN, Double.POSITIVE_INFINITY, Double.NaN, run.completedSteps(),
                run.lci(), run.messages(), seconds, error, curve, null);
        console.printf(Locale.ROOT, "  %-8s %-8s %-12s %d iterations (cap %d), %6.1f s, relative error %.3e%n", dataset, graphName,
                row.algorithm(), run.completedSteps(), cap, seconds, error);
        console.flush();
        return row;
    }

    private static MultiLayerNetwork template(CompositeProblem problem) {
        MultiLayerNetwork template = new MultiLayerNetwork(LeastSquaresModel.configuration(problem.rows(), problem.columns(), false,
                ModelOptions.defaults().withDataType(DataType.DOUBLE)));
        template.init();
        return template;
    }

    /**
     * The most exposed agent's zCDP rho from the epsilon its run's ledger spent: its publications compose to one Gaussian
     * mechanism of {@code mu^2 = 2 rho}, which the exact curve prices at that epsilon (zCDP's conversion with Renyi DP).
     */
    private double rhoOf(double epsilon) {
        if (!new LedgerAccounting(AccountantFactory.named(settings.accountant()), NeighbouringRelation.REPLACE_ONE)
                .pricesGaussiansExactly()) {
            return ZCdp.rho(epsilon, settings.delta());
        }
        double mu = GaussianPrivacyCurve.mu(epsilon, settings.delta());
        return mu * mu / 2;
    }

    private RecalRow run(String dataset, String graphName, Graph graph, CompositeProblem problem, INDArray star,
                    PrimalDualAlgorithm algorithm, double epsilon, PrintWriter console) {
        long iterations = algorithm.isRelay() ? settings.relayIterations() : settings.relayIterations() / AGENTS;
        PrimalDualRunBuilder b = PrimalDualRunBuilder.of(algorithm).model(template(problem)).problem(problem).graph(graph)
                .iterations(iterations).noiseKind(NoiseKind.SEEDED).seed(settings.seed());
        if (algorithm.isPrivate()) {
            b.clip(settings.clip().get(dataset)).zeta(settings.zeta()).target(epsilon, settings.delta())
                    .accountant(AccountantFactory.named(settings.accountant()));
            if (settings.featureNormBound() != null) {
                b.featureNormBound(settings.featureNormBound());
            }
            // Table V's epsilons are the paper's figures: DP-RECAL is priced as the paper prices it (marked not a guarantee)
            b.paperAccounting(algorithm == PrimalDualAlgorithm.DP_RECAL);
        }
        CompositeRun run = b.build();
        long every = Math.max(1, iterations / CURVE_POINTS);
        List<double[]> curve = new ArrayList<>();
        curve.add(new double[]{0, 0, 1.0});
        long start = System.nanoTime();
        double seconds = 0;
        while (!run.isFinished()) {
            run.step();
            if (run.completedSteps() % every == 0 || run.isFinished()) {
                seconds += (System.nanoTime() - start) / 1e9;
                curve.add(new double[]{run.completedSteps(), run.messages(), run.relativeError(star)});
                start = System.nanoTime();
            }
        }
        double error = run.relativeError(star);
        long[] activations = run instanceof RelayRecal r ? r.activations() : null;
        long lci = run.lci();
        double rho = algorithm.isPrivate() ? rhoOf(run.epsilon()) : Double.NaN;
        RecalRow row = new RecalRow(dataset, graphName, algorithm.cliName(), epsilon, algorithm.isPrivate() ? run.epsilon() : Double.POSITIVE_INFINITY,
                rho, iterations, lci, run.messages(), seconds, error, curve, activations);
        console.printf(Locale.ROOT, "  %-8s %-8s %-12s eps %-6s spent %-8s LCI %-5d messages %-6d %6.1f s  relative error %.3e%n",
                dataset, graphName, algorithm.cliName(), Double.isNaN(epsilon) ? "-" : String.valueOf(epsilon),
                Double.isInfinite(row.epsilon()) ? "inf" : EpsilonFormat.upwardSignificant(row.epsilon(), 4), lci,
                run.messages(), seconds, error);
        console.flush();
        run.close();
        return row;
    }

    private void write(List<RecalRow> rows, PrintWriter console) throws IOException {
        StringBuilder results = new StringBuilder("dataset,graph,algorithm,target_epsilon,epsilon,delta,rho,iterations,lci,messages,seconds,relative_error\n");
        StringBuilder curves = new StringBuilder("dataset,graph,algorithm,target_epsilon,iteration,messages,relative_error\n");
        TerminalTable table = new TerminalTable("Table V's shape (epsilons priced the papers' way: not guarantees):"
                + " final relative error at equal (epsilon, delta = " + settings.delta()
                + "), zeta = " + settings.zeta() + (settings.featureNormBound() == null ? ""
                : ", the private algorithms' steps from the public feature bound B = " + settings.featureNormBound()),
                "data", "graph", "algorithm", "target eps", "spent eps", "LCI", "messages", "time (s)", "rel. error");
        for (RecalRow r : rows) {
            String target = Double.isNaN(r.target()) ? "" : String.valueOf(r.target());
            results.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%s,%s,%s,%d,%d,%d,%.2f,%s%n", r.dataset(), r.graph(), r.algorithm(), target,
                    Double.isInfinite(r.epsilon()) ? "inf" : EpsilonFormat.upward(r.epsilon(), 6),
                    Double.isNaN(r.target()) ? "" : settings.delta(), Double.isNaN(r.rho()) ? "" : EpsilonFormat.upwardSignificant(r.rho(), 6),
                    r.iterations(), r.lci(), r.messages(), r.seconds(), String.format(Locale.ROOT, "%.6e", r.error())));
            for (double[] p : r.curve()) {
                curves.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%d,%.6e%n", r.dataset(), r.graph(), r.algorithm(), target,
                        (long) p[0], (long) p[1], p[2]));
            }
            table.addRow(r.dataset(), r.graph(), r.algorithm(), Double.isNaN(r.target()) ? "-" : target,
                    Double.isInfinite(r.epsilon()) ? "inf" : EpsilonFormat.upward(r.epsilon(), 4), r.lci(), r.messages(),
                    String.format(Locale.ROOT, "%.1f", r.seconds()), String.format(Locale.ROOT, "%.3e", r.error()));
        }
        AtomicFiles.replace(written.file("results.csv"), results.toString());
        AtomicFiles.replace(written.file("curves.csv"), curves.toString());
        String rendered = table.render();
        AtomicFiles.replace(written.file("table.txt"), rendered);
        console.println(rendered);
        for (String dataset : settings.datasets()) {
            for (String graph : List.of("ring", "complete")) {
                plot(rows, dataset, graph, 0, "iterations", "error-vs-iterations");
                plot(rows, dataset, graph, 1, "messages (p-dimensional vectors sent)", "error-vs-messages");
            }
        }
        List<Panel> histograms = new ArrayList<>();
        for (RecalRow r : rows) {
            if (r.activations() != null && r.algorithm().equals(PrimalDualAlgorithm.DP_RECAL.cliName()) && r.target() == settings.epsilons().get(0)) {
                double[] k = java.util.Arrays.stream(r.activations()).asDoubleStream().toArray();
                histograms.add(Panel.of(r.dataset() + ", " + r.graph() + ": LCI = " + r.lci(), "agent", "activations K_i",
                        List.of(Series.indexed("K_i", k))).withMarkers(true));
            }
        }
        if (!histograms.isEmpty()) {
            Plots.write(written.file("lci.png"), new Figure("DP-RECAL: activations per agent over "
                    + settings.relayIterations() + " iterations (expected " + settings.relayIterations() / AGENTS + ")", histograms, true));
        }
        console.println(written.line());
    }

    private void plot(List<RecalRow> rows, String dataset, String graph, int xColumn, String xTitle, String name) {
        List<Series> series = new ArrayList<>();
        for (RecalRow r : rows) {
            if (!r.dataset().equals(dataset) || !r.graph().equals(graph)) {
                continue;
            }
            double[] x = r.curve().stream().mapToDouble(p -> p[xColumn]).toArray();
            double[] y = r.curve().stream().mapToDouble(p -> Math.max(p[2], 1e-17)).toArray();
            String label = r.algorithm() + (Double.isNaN(r.target()) ? "" : " (eps " + r.target() + ")");
            series.add(new Series(label, x, y));
        }
        Panel panel = Panel.of(dataset + ", " + graph + " graph, " + AGENTS + " agents", xTitle, "relative error ||x - x*|| / ||x*||",
                series).withLogY(true);
        Plots.write(written.file(name + "-" + dataset + "-" + graph + ".png"), Figure.of(panel));
    }
}
