package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.experiments.report.Figure;
import org.dpdl4j.experiments.report.MetricsCsv;
import org.dpdl4j.experiments.report.Panel;
import org.dpdl4j.experiments.report.Plots;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.experiments.report.Series;
import org.dpdl4j.experiments.report.TerminalTable;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.protocol.federated.Mu2Constants;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The files of a DP-mu^2-FL reproduction: mu2.csv (one row per run: configuration and seed), mu2.png (mean test loss
 * and accuracy against epsilon, ours next to the paper's) and README.md (the table of means over seeds next to the
 * paper's numbers, every chosen constant, the checks of the paper's orderings and of the tolerances on the means).
 */
final class Mu2Report {
    /** Loss tolerance of the comparison at M &lt;= 10 (spec 4.6). */
    static final double LOSS_TOLERANCE = 0.02;
    /** Accuracy tolerance, in points. */
    static final double ACCURACY_TOLERANCE = 3.0;

    private final List<Mu2Cell> runs;
    /** One mean over seeds per configuration, in the order the configurations first ran. */
    private final List<Mu2Cell> cells;
    private final int seeds;
    private final Mu2Constants constants;
    private final double delta;
    private final long seed;
    private final NoiseKind noise;
    private final long examples;
    private final Provenance provenance;
    private final double minutes;
    private final String accountant;

    /**
     * @param runs       every run, one per configuration and seed
     * @param accountant the accounting that calibrated and priced the runs ({@code AccountantFactory.NAMES})
     */
    Mu2Report(List<Mu2Cell> runs, Mu2Constants constants, double delta, long seed, NoiseKind noise, long examples, Provenance provenance,
              double minutes, String accountant) {
        this.runs = List.copyOf(runs);
        Map<String, List<Mu2Cell>> byConfig = new LinkedHashMap<>();
        for (Mu2Cell r : runs) {
            byConfig.computeIfAbsent(r.trust() + "|" + r.machines() + "|" + r.epsilon(), k -> new ArrayList<>()).add(r);
        }
        this.cells = byConfig.values().stream().map(Mu2Cell::mean).toList();
        this.seeds = cells.stream().mapToInt(Mu2Cell::runs).max().orElse(0);
        this.constants = constants;
        this.delta = delta;
        this.seed = seed;
        this.noise = noise;
        this.examples = examples;
        this.provenance = provenance;
        this.minutes = minutes;
        this.accountant = accountant;
    }

    /** Columns of mu2.csv: one row per run. */
    static final List<String> CSV_HEADER = List.of("trust", "machines", "rounds", "seed", "epsilon", "epsilon_achieved", "delta", "sigma",
            "eta", "G", "L", "D", "S", "test_loss", "test_accuracy", "train_loss", "paper_test_loss", "paper_test_accuracy",
            "clipped_rounds", "seconds");

    /** One run as a row of mu2.csv. */
    static List<Object> csvRow(Mu2Cell c, Mu2Constants constants, double delta) {
        return List.of(c.trust(), c.machines(), c.rounds(), c.seed(), c.epsilon(), c.achievedEps(), delta, c.sigma(), c.stepSize(),
                constants.lipschitz(), constants.smoothness(), constants.diameter(), constants.sensitivityBound(), c.testLoss(),
                c.testAccuracy(), c.trainLoss(), c.paperLoss(), c.paperAccuracy(), c.clippedRounds(), c.seconds());
    }

    /** The figure and README.md (mu2.csv is written run by run as the runs finish). */
    void write(Path dir) {
        try {
            Files.createDirectories(dir);
            Plots.write(dir.resolve("mu2.png"), figure(), 4 * Plots.PANEL_WIDTH, Plots.PANEL_HEIGHT + 60);
            writeAtomically(dir.resolve("README.md"), markdown());
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the reproduction to " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        org.dpdl4j.experiments.report.AtomicFiles.replace(file, text);
    }

    /** The means over seeds next to the paper's, one row per configuration. */
    TerminalTable table() {
        TerminalTable t = new TerminalTable("DP-mu^2-FL on MNIST: ours (mean over " + seeds + " seed" + (seeds == 1 ? "" : "s")
                + ") vs the paper (Tables 1-2)", "server", "M", "T", "epsilon", "sigma", "eta", "test loss", "± loss", "paper", "diff",
                "test acc %", "± acc", "paper %", "diff (pts)");
        t.format("sigma", "%.5g").format("eta", "%.4g").format("test loss", "%.4f").format("± loss", "%.4f").format("paper", "%.3f")
                .format("diff", "%+.4f").format("test acc %", "%.1f").format("± acc", "%.1f").format("paper %", "%.1f")
                .format("diff (pts)", "%+.1f");
        for (Mu2Cell c : cells) {
            boolean onGrid = !Double.isNaN(c.paperLoss());
            t.addRow(c.trust(), c.machines(), c.rounds(), c.isReference() ? "inf" : num(c.epsilon()), c.sigma(), c.stepSize(), c.testLoss(),
                    c.testLossStd(), onGrid ? c.paperLoss() : null, onGrid ? c.testLoss() - c.paperLoss() : null, 100 * c.testAccuracy(),
                    100 * c.accuracyStd(), onGrid ? 100 * c.paperAccuracy() : null, onGrid ? 100 * (c.testAccuracy() - c.paperAccuracy()) : null);
        }
        return t;
    }

    private Figure figure() {
        List<Panel> panels = new ArrayList<>();
        for (String metric : List.of("test loss", "test accuracy")) {
            for (String trust : List.of("untrusted", "trusted")) {
                List<Series> series = new ArrayList<>();
                for (int m : machines()) {
                    List<Mu2Cell> row = cells.stream().filter(c -> c.trust().equals(trust) && c.machines() == m).toList();
                    if (row.isEmpty()) {
                        continue;
                    }
                    double[] x = row.stream().mapToDouble(Mu2Cell::epsilon).toArray();
                    boolean loss = metric.equals("test loss");
                    series.add(new Series("ours M=" + m, x, row.stream().mapToDouble(c -> loss ? c.testLoss() : c.testAccuracy()).toArray()));
                    if (row.stream().noneMatch(c -> Double.isNaN(c.paperLoss()))) {
                        series.add(new Series("paper M=" + m, x,
                                row.stream().mapToDouble(c -> loss ? c.paperLoss() : c.paperAccuracy()).toArray()));
                    }
                }
                if (!series.isEmpty()) {
                    panels.add(new Panel(trust + " server: " + metric, "epsilon", metric, series, false, true));
                }
            }
        }
        return new Figure("DP-mu^2-FL, MNIST softmax regression: ours vs the paper", panels, true);
    }

    private TreeSet<Integer> machines() {
        TreeSet<Integer> out = new TreeSet<>();
        cells.stream().filter(c -> !c.isReference()).forEach(c -> out.add(c.machines()));
        return out;
    }

    private Optional<Mu2Cell> cell(String trust, int m, double eps) {
        return cells.stream().filter(c -> c.trust().equals(trust) && c.machines() == m && c.epsilon() == eps).findFirst();
    }

    private List<Double> epsilons() {
        return cells.stream().filter(c -> !c.isReference()).map(Mu2Cell::epsilon).distinct().sorted().toList();
    }

    /** The checks of the paper's qualitative findings and of the tolerances, as markdown bullet lines. */
    List<String> checks() {
        List<String> out = new ArrayList<>();
        for (String trust : List.of("untrusted", "trusted")) {
            for (int m : machines()) {
                List<Mu2Cell> row = epsilons().stream().map(e -> cell(trust, m, e)).flatMap(Optional::stream).toList();
                if (row.size() < 2) {
                    continue;
                }
                boolean falls = true;
                for (int i = 1; i < row.size(); i++) {
                    falls &= row.get(i).testLoss() <= row.get(i - 1).testLoss();
                }
                out.add(verdict(falls, "loss falls with epsilon (" + trust + ", M = " + m + "): "
                        + String.join(" > ", row.stream().map(c -> fmt("%.4f", c.testLoss())).toList())));
            }
        }
        for (double eps : epsilons()) {
            List<Mu2Cell> untrusted = machines().stream().map(m -> cell("untrusted", m, eps)).flatMap(Optional::stream).toList();
            List<Mu2Cell> trusted = machines().stream().map(m -> cell("trusted", m, eps)).flatMap(Optional::stream).toList();
            if (untrusted.size() >= 2) {
                boolean degrades = true;
                for (int i = 1; i < untrusted.size(); i++) {
                    degrades &= untrusted.get(i).testLoss() >= untrusted.get(i - 1).testLoss();
                }
                out.add(verdict(degrades, "untrusted loss grows with M (epsilon = " + num(eps) + "): "
                        + String.join(" < ", untrusted.stream().map(c -> fmt("%.4f", c.testLoss())).toList())));
            }
            if (trusted.size() >= 2 && untrusted.size() == trusted.size()) {
                double spreadT = spread(trusted);
                double spreadU = spread(untrusted);
                out.add(verdict(spreadT < spreadU, "trusted loss barely depends on M (epsilon = " + num(eps) + "): spread over M "
                        + fmt("%.4f", spreadT) + " (untrusted: " + fmt("%.4f", spreadU) + ")"));
            }
            Optional<Mu2Cell> u1 = cell("untrusted", 1, eps);
            Optional<Mu2Cell> t1 = cell("trusted", 1, eps);
            if (u1.isPresent() && t1.isPresent()) {
                boolean same = u1.get().testLoss() == t1.get().testLoss() && u1.get().testAccuracy() == t1.get().testAccuracy()
                        && u1.get().sigma() == t1.get().sigma();
                out.add(verdict(same, "M = 1 identical under both trust models (epsilon = " + num(eps) + "): sigma "
                        + fmt("%.6g", u1.get().sigma()) + " vs " + fmt("%.6g", t1.get().sigma()) + ", loss " + u1.get().testLoss() + " vs "
                        + t1.get().testLoss()));
            }
        }
        for (Mu2Cell c : cells) {
            if (Double.isNaN(c.paperLoss()) || c.machines() > 10) {
                continue;
            }
            double dl = c.testLoss() - c.paperLoss();
            double da = 100 * (c.testAccuracy() - c.paperAccuracy());
            out.add(verdict(Math.abs(dl) <= LOSS_TOLERANCE && Math.abs(da) <= ACCURACY_TOLERANCE, String.format(Locale.ROOT,
                    "within tolerance (%s, M = %d, epsilon = %s): loss %+.4f (<= %.2f), accuracy %+.1f points (<= %.0f)", c.trust(),
                    c.machines(), num(c.epsilon()), dl, LOSS_TOLERANCE, da, ACCURACY_TOLERANCE)));
        }
        return out;
    }

    private static double spread(List<Mu2Cell> cells) {
        double min = cells.stream().mapToDouble(Mu2Cell::testLoss).min().orElse(Double.NaN);
        double max = cells.stream().mapToDouble(Mu2Cell::testLoss).max().orElse(Double.NaN);
        return max - min;
    }

    private static String verdict(boolean ok, String text) {
        return "- " + (ok ? "[x] " : "[ ] **NOT MET**: ") + text;
    }

    String markdown() {
        StringBuilder s = new StringBuilder();
        s.append("# DP-mu^2-FL on MNIST: reproduction of Tables 1-2\n\n");
        s.append("Reshef & Levy, *Private and Federated Stochastic Convex Optimization: Efficient Strategies for Centralized Systems* "
                + "(ICML 2024), Tables 1 (untrusted server) and 2 (trusted server): softmax regression on MNIST, M machines with "
                + "T = N / M examples each, every example used once, test cross-entropy and accuracy; N = " + examples
                + " training examples. Produced by `dpdl4j " + String.join(" ", provenance.arguments()) + "`.\n\n");
        s.append("## Results\n\n");
        s.append(table().toMarkdown()).append('\n');
        s.append("Means over " + seeds + " seed" + (seeds == 1 ? "" : "s") + " (split and noise), `±` their standard deviation; every run is a "
                + "row of mu2.csv. `diff` = mean - paper. `eta` is the step size, `sigma` the noise std (per machine with an untrusted server, on the"
                + " average with a trusted one). The last row (`none`, epsilon = inf) is non-private mu^2-SGD with M = 1 on the same"
                + " setup: the floor of what this constrained model reaches in one pass.\n\n");
        s.append("![test loss and accuracy against epsilon](mu2.png)\n\n");
        s.append("## Checks\n\n");
        checks().forEach(line -> s.append(line).append('\n'));
        s.append('\n');
        s.append("## Setup and every constant we had to choose\n\n");
        s.append("The paper's text lost G, L, D, eta, delta and the initial point (spec 4.6); these are ours:\n\n");
        s.append("| quantity | value | why |\n| --- | --- | --- |\n");
        s.append(row("data", examples + " MNIST training images, pixels p/255 in [0, 1]; the 10000 test images for the metrics",
                "spec 4.6 (bias included: 7850 parameters)"));
        s.append(row("split", "iid: a random permutation (seed " + seed + ") cut into M equal parts; machine i uses its part in that order",
                "the paper's split is unknown; spec assumes random and equal"));
        s.append(row("domain K", "ball ||theta|| <= D/2 over all 7850 parameters, D = " + num(constants.diameter()),
                "D = 0.1 inferred by the spec (projected full-batch training over it matches the tables' best entries)"));
        s.append(row("start x_1", "0 (the centre of K)", "data independent, inside K"));
        s.append(row("G", fmt("%.6g", constants.lipschitz()), "sqrt(2) R with R = sqrt(784 + 1) bounding ||(x, 1)|| for pixels in [0, 1]: a public bound, not read off the data (spec 4.6)"));
        s.append(row("L", fmt("%.6g", constants.smoothness()), "R^2 / 2 with the same public R (spec 4.6)"));
        s.append(row("S = G + 2LD", fmt("%.6g", constants.sensitivityBound()),
                "bound on each weighted increment q (Lemma 4.2); every q is clipped to S, so the sensitivity 2S holds whatever the data"));
        s.append(row("delta", Double.toString(delta), "not given by the paper; spec default"));
        if (!new LedgerAccounting(AccountantFactory.named(accountant), NeighbouringRelation.REPLACE_ONE).pricesGaussiansExactly()) {
            s.append(row("sigma", "closed form sigma^2 = 2 T S^2 / rho (untrusted), 2 T S^2 / (M^2 rho) (trusted), rho = (sqrt(ln(1/delta)"
                    + " + eps) - sqrt(ln(1/delta)))^2", "spec 4.4 (Theorems 5.2 / 6.2)"));
        } else {
            s.append(row("sigma", "sigma^2 = 4 T S^2 / mu^2 (untrusted), 4 T S^2 / (M^2 mu^2) (trusted), mu = mu(eps, delta) the exact"
                    + " Gaussian curve's (" + accountant + " accountant)", "T rounds of sensitivity 2S (2S/M) compose to one Gaussian"
                    + " mechanism; less noise than spec 4.4's zCDP closed form (Theorems 5.2 / 6.2, `--accountant rdp`) at the same"
                    + " epsilon"));
        }
        s.append(row("eta", "min{1/(4 L T), D / (T sqrt(sigmaTilde^2/M + V_Y/T))}, sigmaTilde^2 = 2 G^2 + 8 D^2 L^2, V_Y = d sigma^2 / M"
                + " (untrusted) or d sigma^2 (trusted)", "spec 4.5; gradient-variance bounds sigma_g <= G, sigma_L <= L"));
        s.append(row("batch", "1 example per machine and round", "the paper's algorithm"));
        s.append(row("precision", "float32", "noise dwarfs rounding; float halves the memory traffic"));
        s.append(row("noise", noise.cliName() + (!noise.isSecure() ? " (reproducible from the run's seed; NOT secure: a reproduction measures"
                + " utility at the prescribed noise level)" : " (AES-256-CTR keyed from SecureRandom; not reproducible)"), "-"));
        s.append(row("seeds", "split and noise: " + seed + (seeds > 1 ? " to " + (seed + seeds - 1) : "") + " (" + seeds + " run"
                + (seeds == 1 ? "" : "s") + " per configuration; tables and checks use the mean)",
                "a single run's accuracy moves by several points with the seed at the noisiest settings"));
        s.append(row("output", "the query point x_{T+1} after the last round", "post-processing of private releases"));
        s.append('\n');
        s.append("## Provenance\n\n");
        s.append("- dpdl4j ").append(provenance.dpdl4jVersion()).append(", Java ").append(provenance.javaVersion()).append(" (")
                .append(provenance.javaVendor()).append("), ").append(provenance.os()).append(", ").append(provenance.processors())
                .append(" processors, ND4J backend ").append(provenance.nd4jBackend()).append('\n');
        s.append("- this invocation started ").append(provenance.startTime()).append(" and took ").append(fmt("%.1f", minutes))
                .append(" minutes (runs resumed from mu2.csv are not retrained)\n");
        s.append("- training time of every run is in mu2.csv (`seconds`): ")
                .append(fmt("%.1f", runs.stream().mapToDouble(Mu2Cell::seconds).sum() / 60)).append(" minutes in all\n");
        return s.toString();
    }

    private static String row(String a, String b, String c) {
        return "| " + a + " | " + b + " | " + c + " |\n";
    }

    /** 4 for 4.0, else the shortest decimal. */
    private static String num(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
    }

    private static String fmt(String pattern, double x) {
        return String.format(Locale.ROOT, pattern, x);
    }
}
