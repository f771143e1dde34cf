package org.dpdl4j.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.privacy.accounting.ExactGaussianAccountant;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.accounting.correlated.CalibratedPair;
import org.dpdl4j.privacy.accounting.correlated.CalibrationResult;
import org.dpdl4j.privacy.accounting.correlated.CalibrationTarget;
import org.dpdl4j.privacy.accounting.correlated.CorrelatedNoise;
import org.dpdl4j.privacy.accounting.correlated.DecorBaselines;
import org.dpdl4j.privacy.accounting.correlated.KappaResult;
import org.dpdl4j.privacy.accounting.correlated.NoisePairCalibrator;
import org.dpdl4j.privacy.accounting.correlated.SecRdpAccountant;
import org.dpdl4j.privacy.accounting.correlated.SecRdpGuarantee;
import org.dpdl4j.privacy.accounting.correlated.UserLevelSensitivity;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code decor}: the user-level SecRDP guarantee of Decor (pairwise-correlated Gaussian noise on a
 * graph) for given noise levels, or the calibration of (sigma_cdp, sigma_cor) pairs to a budget.
 * The accounting output ends with {@code kappa=}, one line per accountant ({@code epsilon_secrdp=}, SecRDP's zCDP
 * conversion, and {@code epsilon_gaussian=}, the exact curve of the Gaussian noise it analyses), the accountant of the
 * tightest ({@code epsilon_accountant=}) and {@code epsilon=} (the smaller of the two, both valid upper bounds).
 */
@Command(name = "decor", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Privacy of Decor's correlated noise (SecRDP, user level, replace-one: sensitivity 2C).",
            "Prints kappa = max_i ((sigma_cdp^2 I + sigma_cor^2 L_H)^-1)_ii, the per-step RDP 2 alpha C^2 kappa,",
            "rho = 2 T C^2 kappa and epsilon = rho + 2 sqrt(rho ln(1/delta)), and the exact epsilon of the Gaussian noise",
            "(mu = sqrt(2 rho)); epsilon= is the smaller; with --calibrate, noise pairs meeting --epsilon by SecRDP."})
public final class AccountDecorCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--topology", required = true, paramLabel = "T",
            description = "ring, torus (or torus:RxC), complete, star, path, regular:D, erdos-renyi:P, k-out:K, file:PATH")
    private String topology;

    @Option(names = "--nodes", required = true, paramLabel = "N",
            description = "number of users; for a torus a perfect square or RxC")
    private String nodes;

    @Option(converter = Converters.Positive.class, names = "--sigma-cdp", paramLabel = "S", description = "std of each user's private noise")
    private Double sigmaCdp;

    @Option(converter = Converters.Positive.class, names = "--sigma-cor", paramLabel = "S", description = "std of the pairwise cancelling noise per edge")
    private Double sigmaCor;

    @Option(converter = Converters.Positive.class, names = "--clip", required = true, paramLabel = "C", description = "clipping norm C of a user's gradient")
    private double clip;

    @Option(converter = Converters.PositiveLong.class, names = "--steps", required = true, paramLabel = "T", description = "number of iterations T")
    private long steps;

    @Option(converter = Converters.Probability.class, names = "--delta", required = true, paramLabel = "D", description = "delta of the (epsilon, delta) guarantee")
    private double delta;

    @Option(names = "--adversary", defaultValue = "eavesdropper", paramLabel = "A",
            description = "eavesdropper, curious or colluding:Q (default: ${DEFAULT-VALUE})")
    private String adversary;

    @Option(names = "--seed", defaultValue = "0", description = "seed of random topologies (default: ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--calibrate", description = "calibrate (sigma_cdp, sigma_cor) pairs to --epsilon instead")
    private boolean calibrate;

    @Option(converter = Converters.Positive.class, names = "--epsilon", paramLabel = "E", description = "target epsilon for --calibrate")
    private Double epsilon;

    @Option(converter = Converters.PositiveInt.class, names = "--grid-size", defaultValue = "50", paramLabel = "K",
            description = "sigma_cdp grid size for --calibrate (default: ${DEFAULT-VALUE})")
    private int gridSize;

    @Override
    public Integer call() {
        checkOptionCombination();
        Graph graph;
        Adversary adv;
        try {
            graph = TopologySpec.resolve(topology, nodes, seed);
            adv = Adversary.parse(adversary);
        } catch (IllegalArgumentException ex) {
            throw new ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
        PrintWriter out = spec.commandLine().getOut();
        printGraph(out, graph);
        SecRdpAccountant accountant = new SecRdpAccountant(graph);
        try {
            if (calibrate) {
                return calibrate(out, accountant, adv);
            }
            return account(out, accountant, adv);
        } catch (IllegalArgumentException ex) {
            throw new ParameterException(spec.commandLine(), ex.getMessage(), ex);
        } finally {
            out.flush();
        }
    }

    private void checkOptionCombination() {
        if (calibrate) {
            if (epsilon == null) {
                throw new ParameterException(spec.commandLine(), "--calibrate needs the target --epsilon");
            }
            if (sigmaCdp != null || sigmaCor != null) {
                throw new ParameterException(spec.commandLine(),
                        "--sigma-cdp and --sigma-cor are what --calibrate computes; drop them or drop --calibrate");
            }
        } else {
            if (sigmaCdp == null || sigmaCor == null) {
                throw new ParameterException(spec.commandLine(),
                        "give both --sigma-cdp and --sigma-cor, or --calibrate --epsilon E to compute them");
            }
            if (epsilon != null) {
                throw new ParameterException(spec.commandLine(), "--epsilon is a calibration target; use it with --calibrate");
            }
            if (spec.commandLine().getParseResult().hasMatchedOption("--grid-size")) {
                throw new ParameterException(spec.commandLine(), "--grid-size is the calibration's sigma_cdp grid; use it"
                        + " with --calibrate --epsilon E, or drop it");
            }
        }
    }

    private void printGraph(PrintWriter out, Graph g) {
        String connectivity = g.isConnected() ? (g.isTwoConnected() ? "connected, 2-connected" : "connected, not 2-connected")
                : "DISCONNECTED (" + g.connectedComponents().size() + " components)";
        out.printf(Locale.ROOT, "graph: %s, %d nodes, %d edges, degree %d..%d, %s%n", TopologySpec.parse(topology).name(),
                g.vertexCount(), g.edgeCount(), g.minDegree(), g.maxDegree(), connectivity);
        out.printf(Locale.ROOT, "algebraic connectivity a(G) = %.10g%n", g.algebraicConnectivity());
    }

    private int account(PrintWriter out, SecRdpAccountant accountant, Adversary adv) {
        CorrelatedNoise noise = new CorrelatedNoise(sigmaCdp, sigmaCor);
        double sensitivity = UserLevelSensitivity.decor(clip);
        KappaResult k = accountant.kappa(noise, adv);
        SecRdpGuarantee g = SecRdpGuarantee.of(k, sensitivity, steps, delta);
        out.printf(Locale.ROOT, "adversary: %s (%s)%n", adv.name(), adv.describe());
        out.printf(Locale.ROOT, "noise: sigma_cdp = %s, sigma_cor = %s%n", sigmaCdp, sigmaCor);
        out.printf(Locale.ROOT, "kappa = %.10g (%s)%n", k.kappa(), describe(k, accountant.graph()));
        out.printf(Locale.ROOT, "sensitivity: 2C = %s (replace-one, user level)%n", sensitivity);
        out.printf(Locale.ROOT, "per step: eps_step(alpha) = alpha * 2 C^2 kappa = alpha * %.10g%n", g.rhoPerStep());
        out.printf(Locale.ROOT, "T = %d steps: rho = T * 2 C^2 kappa = %.10g%n", steps, g.rho());
        out.printf(Locale.ROOT, "(epsilon, delta) = (%s, %s), epsilon = rho + 2 sqrt(rho ln(1/delta)) (SecRDP)%n",
                EpsilonFormat.upward(g.epsilon(), 6), delta);
        // The released noise is Gaussian against every adversary, and one user moves its mean by mu = sqrt(2 rho):
        // the exact Gaussian curve at that mu is the true epsilon (an upper bound when kappa is one).
        double mu = Math.sqrt(2 * g.rho());
        double exact = GaussianPrivacyCurve.epsilon(mu, delta);
        out.printf(Locale.ROOT, "exact Gaussian curve: mu = sqrt(2 rho) = %.10g, epsilon = %s (%s)%n", mu,
                EpsilonFormat.upward(exact, 6),
                k.isExact() ? "the true epsilon" : "an upper bound, from kappa's upper bound");
        boolean gaussianTighter = exact < g.epsilon();
        out.println("kappa=" + k.kappa());
        out.println("epsilon_secrdp=" + g.epsilon());
        out.println("epsilon_gaussian=" + exact);
        out.println("epsilon_accountant=" + (gaussianTighter ? ExactGaussianAccountant.NAME : "secrdp"));
        out.println("epsilon=" + Math.min(exact, g.epsilon()));
        return 0;
    }

    private int calibrate(PrintWriter out, SecRdpAccountant accountant, Adversary adv) {
        CalibrationTarget target = new CalibrationTarget(epsilon, delta, steps, UserLevelSensitivity.decor(clip), adv, gridSize);
        CalibrationResult r = new NoisePairCalibrator(accountant).calibrate(target);
        DecorBaselines b = r.baselines();
        out.printf(Locale.ROOT, "adversary: %s (%s)%n", adv.name(), adv.describe());
        out.printf(Locale.ROOT, "target: epsilon = %s, delta = %s, T = %d, C = %s%n", epsilon, delta, steps, clip);
        out.printf(Locale.ROOT, "per-step target: eps_bar = rho(epsilon, delta) / T = %.10g%n", b.rhoPerStep());
        out.printf(Locale.ROOT, "baselines: sigma_ldp = %.6f, sigma_cdp(CDP) = sigma_ldp / sqrt(n) = %.6f%n", b.sigmaLdp(),
                b.sigmaCdpCentral());
        out.printf(Locale.ROOT, "grid: %d values of sigma_cdp in [%.6f, %.6f]: %d feasible, %d infeasible%n", gridSize,
                b.sigmaCdpCentral(), b.sigmaLdp(), r.feasible().size(), r.infeasibleGridValues());
        if (r.feasible().isEmpty()) {
            spec.commandLine().getErr().println("no (sigma_cdp, sigma_cor) pair on the grid meets epsilon = " + epsilon
                    + " against " + adv.name() + "; a larger budget, fewer steps or a better connected topology is needed");
            return 1;
        }
        List<CalibratedPair> candidates = r.candidates();
        String[] labels = candidates.size() == 3 ? new String[] {"smallest sigma_cdp", "middle", "largest sigma_cdp"}
                : new String[] {"candidate 1", "candidate 2", "candidate 3"};
        out.println("candidates (achieved epsilon at or below the target):");
        for (int c = 0; c < candidates.size(); c++) {
            CalibratedPair p = candidates.get(c);
            out.printf(Locale.ROOT, "  %-18s sigma_cdp=%.10g sigma_cor=%.10g kappa=%.10g (%s) epsilon=%s%n", labels[c] + ":",
                    p.sigmaCdp(), p.sigmaCor(), p.guarantee().kappa().kappa(), p.guarantee().kappa().exactness().name().toLowerCase(Locale.ROOT),
                    EpsilonFormat.upward(p.epsilon(), 8));
        }
        return 0;
    }

    private static String describe(KappaResult k, Graph graph) {
        if (!k.isExact()) {
            int q = k.adversary().colluders();
            String why = graph.algebraicConnectivity() <= q
                    ? "; a(G) <= q, so the bound falls back to the LDP level 1/sigma_cdp^2"
                    : "";
            return "upper bound: Theorem 1 with a(G_H) >= a(G) - q, C(n, q) > " + SecRdpAccountant.EXACT_SUBSET_LIMIT
                    + " colluding sets are too many to enumerate" + why;
        }
        StringBuilder sb = new StringBuilder("exact");
        k.worstVertex().ifPresent(v -> sb.append(", worst honest user ").append(v));
        if (!k.worstDeletedSet().isEmpty()) {
            sb.append(", colluders ").append(k.worstDeletedSet());
        }
        return sb.toString();
    }
}
