package org.dpdl4j.experiments.reproduce;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.experiments.report.Figure;
import org.dpdl4j.experiments.report.Panel;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.Series;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.muffliato.GossipPolynomial;
import org.dpdl4j.protocol.muffliato.GossipScheme;
import org.dpdl4j.protocol.muffliato.MuffliatoAveraging;
import org.dpdl4j.protocol.muffliato.PairwiseNetworkDp;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The headline shapes of Muffliato (Cyffers et al. 2022) for private averaging on one graph: pairwise epsilon against
 * graph distance (exact divergence of the observer's view, the paper's per-message sum, local DP), and the error of the
 * nodes' estimates of the mean when the noise is calibrated to the same epsilon as local DP, as the mean pairwise
 * epsilon, or as a trusted curator (central DP). Writes {@code distance.csv}, {@code distance.png}, {@code utility.csv},
 * {@code utility.png} and {@code checks.txt} (which orderings of the paper hold).
 */
public final class MuffliatoReproduction {

    /**
     * @param out       output directory
     * @param topology  graph, e.g. {@code regular:4}
     * @param nodes     n (or RxC for a torus)
     * @param steps     T gossip steps
     * @param dimension d of each node's value
     * @param epsilons  targets of the utility comparison
     * @param distanceEpsilon the local-DP epsilon whose noise the distance profile uses
     * @param delta     delta of every epsilon
     * @param seed      graph, data and noise seed
     * @param seeds     repetitions of the utility runs (seeds S, S+1, ...)
     */
    public record Settings(Path out, String topology, String nodes, int steps, int dimension, List<Double> epsilons,
                           double distanceEpsilon, double delta, long seed, int seeds) {
    }

    /** Fewest pairs at a distance for its mean to enter the ordering check. */
    static final int MIN_PAIRS = 100;

    private final Settings s;

    public MuffliatoReproduction(Settings settings) {
        this.s = settings;
    }

    /** Runs both experiments and writes their files; returns 0. */
    public int run(PrintWriter log) throws IOException {
        // claimed like every --out: locked, private, and never another command's directory
        try (RunDirectory claim = RunDirectory.claim(s.out(), "dpdl4j reproduce muffliato", "dpdl4j reproduce muffliato",
                RunDirectory.Reuse.SAME_COMMAND)) {
            return runIn(log);
        }
    }

    private int runIn(PrintWriter log) throws IOException {
        Graph g = TopologySpec.resolve(s.topology(), s.nodes(), s.seed());
        MixingMatrix w = MixingMatrix.metropolisHastings(g);
        PairwiseNetworkDp acc = PairwiseNetworkDp.of(w, GossipScheme.CHEBYSHEV, s.steps());
        List<String> checks = new ArrayList<>();
        distance(g, acc, checks, log);
        utility(g, w, acc, checks, log);
        AtomicFiles.replace(s.out().resolve("checks.txt"), String.join("\n", checks) + "\n");
        checks.forEach(log::println);
        log.flush();
        return 0;
    }

    /** Noise multiplier sigma / Delta of one local-DP Gaussian release at (epsilon, delta). */
    private double localMultiplier(double epsilon) {
        return 1.0 / Math.sqrt(2.0 * ZCdp.rho(epsilon, s.delta()));
    }

    private void distance(Graph g, PairwiseNetworkDp acc, List<String> checks, PrintWriter log) throws IOException {
        int n = g.vertexCount();
        int[][] dist = distances(g);
        double z = localMultiplier(s.distanceEpsilon());
        double[][] eps = acc.epsilons(z, 1, s.delta());
        double[][] paper = acc.paperFactors();
        double local = PairwiseNetworkDp.localEpsilon(z, 1, s.delta());
        int maxD = 0;
        for (int[] row : dist) {
            for (int d : row) {
                maxD = Math.max(maxD, d);
            }
        }
        List<double[]> rows = new ArrayList<>();
        StringBuilder csv = new StringBuilder("distance,pairs,exposure_mean,epsilon_mean,epsilon_min,epsilon_max,paper_epsilon_mean,"
                + "paper_epsilon_max,local_epsilon\n");
        for (int d = 1; d <= maxD; d++) {
            double sumE = 0, sumEps = 0, minEps = Double.POSITIVE_INFINITY, maxEps = 0, sumPaper = 0, maxPaper = 0;
            int count = 0;
            for (int u = 0; u < n; u++) {
                for (int v = 0; v < n; v++) {
                    if (u != v && dist[u][v] == d) {
                        count++;
                        sumE += acc.exposure(u, v);
                        sumEps += eps[u][v];
                        minEps = Math.min(minEps, eps[u][v]);
                        maxEps = Math.max(maxEps, eps[u][v]);
                        double pe = paper[u][v] == 0 ? 0 : ZCdp.epsilon(paper[u][v] / (2 * z * z), s.delta());
                        sumPaper += pe;
                        maxPaper = Math.max(maxPaper, pe);
                    }
                }
            }
            rows.add(new double[] {d, count, sumE / count, sumEps / count, minEps, maxEps, sumPaper / count, maxPaper, local});
            // epsilons rounded up (never shown below the bound), the exposure to nearest
            csv.append(String.format(Locale.ROOT, "%d,%d,%.6g,%s,%s,%s,%s,%s,%s%n", d, count, sumE / count, up6(sumEps / count),
                    up6(minEps), up6(maxEps), up6(sumPaper / count), up6(maxPaper), up6(local)));
        }
        AtomicFiles.replace(s.out().resolve("distance.csv"), csv.toString());
        double[] x = rows.stream().mapToDouble(r -> r[0]).toArray();
        Panel panel = new Panel(String.format(Locale.ROOT, "%s, n = %d, T = %d, sigma/Delta = %.3g", s.topology(), n, s.steps(), z),
                "graph distance between u and v", "epsilon of u towards v (delta " + s.delta() + ")",
                List.of(new Series("exact, mean over pairs", x, rows.stream().mapToDouble(r -> r[3]).toArray()),
                        new Series("exact, max over pairs", x, rows.stream().mapToDouble(r -> r[5]).toArray()),
                        new Series("paper's per-message sum, mean", x, rows.stream().mapToDouble(r -> r[6]).toArray()),
                        new Series("local DP", x, rows.stream().mapToDouble(r -> r[8]).toArray())), false, true);
        Plots.write(s.out().resolve("distance.png"), Figure.of(panel));
        // Distances held by a handful of pairs (the graph's far fringe) are averages of too few pairs to order.
        boolean falling = true;
        double previous = Double.POSITIVE_INFINITY;
        for (double[] r : rows) {
            if (r[1] >= MIN_PAIRS) {
                falling &= r[3] <= previous + 1e-12;
                previous = r[3];
            }
        }
        checks.add(mark(falling) + " mean pairwise epsilon does not grow with graph distance (distances with at least " + MIN_PAIRS
                + " pairs)");
        checks.add(mark(rows.get(rows.size() - 1)[3] < 0.5 * local) + " distant pairs get far less than local DP (mean at distance "
                + (int) x[x.length - 1] + ": " + fmt(rows.get(rows.size() - 1)[3]) + " vs " + fmt(local) + ")");
        checks.add(mark(rows.get(0)[5] >= local - 1e-9) + " neighbours see u's noisy value itself: max at distance 1 = local DP ("
                + fmt(rows.get(0)[5]) + "), so the max over pairs never improves on local DP");
        double paperBelow = 0;
        int pairs = 0;
        for (int u = 0; u < n; u++) {
            for (int v = 0; v < n; v++) {
                if (u != v) {
                    pairs++;
                    if (paper[u][v] < acc.exposure(u, v) - 1e-9) {
                        paperBelow++;
                    }
                }
            }
        }
        checks.add(String.format(Locale.ROOT, "[i] the paper's per-message sum is below the exact divergence for %.1f%% of the pairs"
                + " (the messages share noise); the exact value is what dpdl4j reports", 100 * paperBelow / pairs));
        log.printf(Locale.ROOT, "distance profile: %d distances, local DP epsilon %s%n", rows.size(), fmt(local));
    }

    private void utility(Graph g, MixingMatrix w, PairwiseNetworkDp acc, List<String> checks, PrintWriter log) throws IOException {
        int n = g.vertexCount();
        int d = s.dimension();
        double clipNorm = 1.0;
        double sensitivity = MuffliatoAveraging.sensitivity(clipNorm);
        StringBuilder csv = new StringBuilder("epsilon,calibration,scheme,sigma_over_delta,mean_pairwise_epsilon,local_epsilon,mse\n");
        List<Double> eps = s.epsilons();
        double[] x = eps.stream().mapToDouble(Double::doubleValue).toArray();
        double[] ldp = new double[x.length];
        double[] mean = new double[x.length];
        double[] meanPlain = new double[x.length];
        double[] central = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            double zLocal = localMultiplier(x[i]);
            double zMean = acc.noiseMultiplierFor(x[i], 1, s.delta(), PairwiseNetworkDp.Target.MEAN);
            ldp[i] = mse(w, GossipScheme.CHEBYSHEV, zLocal * sensitivity, clipNorm, n, d);
            mean[i] = mse(w, GossipScheme.CHEBYSHEV, zMean * sensitivity, clipNorm, n, d);
            meanPlain[i] = mse(w, GossipScheme.PLAIN, zMean * sensitivity, clipNorm, n, d);
            // A trusted curator adds N(0, sigma_c^2 I) to the exact mean, whose sensitivity is Delta / n.
            double sigmaCentral = zLocal * sensitivity / n;
            central[i] = sigmaCentral * sigmaCentral * d;
            double pairLocal = acc.summary(zLocal, 1, s.delta()).mean();
            csv.append(row(x[i], "local", "chebyshev", zLocal, pairLocal, ldp[i]));
            csv.append(row(x[i], "pairwise-mean", "chebyshev", zMean, x[i], mean[i]));
            csv.append(row(x[i], "pairwise-mean", "plain", zMean, x[i], meanPlain[i]));
            csv.append(row(x[i], "central", "exact", zLocal, Double.NaN, central[i]));
            log.printf(Locale.ROOT, "epsilon %.3g: sigma/Delta local %.4g, pairwise-mean %.4g; mse local %.4g, pairwise %.4g (plain %.4g),"
                    + " central %.4g%n", x[i], zLocal, zMean, ldp[i], mean[i], meanPlain[i], central[i]);
        }
        AtomicFiles.replace(s.out().resolve("utility.csv"), csv.toString());
        Panel panel = new Panel(String.format(Locale.ROOT, "private averaging, %s, n = %d, d = %d, T = %d", s.topology(), n, d, s.steps()),
                "target epsilon (delta " + s.delta() + ")", "mean squared error of the nodes' estimates",
                List.of(new Series("local DP noise, Chebyshev gossip", x, ldp),
                        new Series("Muffliato, mean pairwise epsilon, Chebyshev", x, mean),
                        new Series("Muffliato, mean pairwise epsilon, plain", x, meanPlain),
                        new Series("central DP (trusted curator)", x, central)), true, true);
        Plots.write(s.out().resolve("utility.png"), Figure.of(panel));
        boolean between = true;
        boolean cheb = true;
        for (int i = 0; i < x.length; i++) {
            between &= central[i] < mean[i] && mean[i] < ldp[i];
            cheb &= mean[i] < meanPlain[i];
        }
        checks.add(mark(between) + " at equal epsilon: central DP < Muffliato (mean pairwise) < local DP in error, at every target");
        checks.add(mark(cheb) + " Chebyshev gossip beats plain gossip at the same T and the same pairwise epsilon");
    }

    /** Mean over nodes and seeds of ||x_v^T - mean(x)||^2 for values on the sphere of radius {@code clipNorm}. */
    private double mse(MixingMatrix w, GossipScheme scheme, double sigma, double clipNorm, int n, int d) {
        MuffliatoAveraging avg = new MuffliatoAveraging(new GossipPolynomial(w, scheme), s.steps());
        double total = 0;
        for (int k = 0; k < s.seeds(); k++) {
            SplittableRandom r = new SplittableRandom(s.seed() + k);
            double[][] values = new double[n][d];
            for (double[] v : values) {
                double norm = 0;
                for (int j = 0; j < d; j++) {
                    v[j] = r.nextGaussian() + 0.5;
                    norm += v[j] * v[j];
                }
                for (int j = 0; j < d; j++) {
                    v[j] *= clipNorm / Math.sqrt(norm);
                }
            }
            INDArray x = Nd4j.createFromArray(values).castTo(DataType.DOUBLE);
            INDArray out = avg.run(x, clipNorm, sigma, new SeededNoiseStreams(s.seed() + 1000 + k), 0);
            INDArray diff = out.subRowVector(x.mean(0));
            total += diff.mul(diff).sumNumber().doubleValue() / n;
        }
        return total / s.seeds();
    }

    private String row(double eps, String calibration, String scheme, double z, double pair, double mse) {
        return String.format(Locale.ROOT, "%s,%s,%s,%.6g,%s,%s,%.6g%n", eps, calibration, scheme, z, Double.isNaN(pair) ? "" : fmt(pair),
                fmt(PairwiseNetworkDp.localEpsilon(z, 1, s.delta())), mse);
    }

    private static String mark(boolean ok) {
        return ok ? "[x]" : "[ ]";
    }

    /** An epsilon to 4 significant digits, rounded up. */
    private static String fmt(double v) {
        return EpsilonFormat.upwardSignificant(v, 4);
    }

    /** An epsilon to 6 significant digits, rounded up. */
    private static String up6(double v) {
        return EpsilonFormat.upwardSignificant(v, 6);
    }

    private static int[][] distances(Graph g) {
        int n = g.vertexCount();
        int[][] d = new int[n][n];
        for (int src = 0; src < n; src++) {
            java.util.Arrays.fill(d[src], -1);
            java.util.ArrayDeque<Integer> q = new java.util.ArrayDeque<>();
            d[src][src] = 0;
            q.add(src);
            while (!q.isEmpty()) {
                int a = q.poll();
                for (int b : g.neighbours(a)) {
                    if (d[src][b] < 0) {
                        d[src][b] = d[src][a] + 1;
                        q.add(b);
                    }
                }
            }
        }
        return d;
    }
}
