package org.dpdl4j.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dpdl4j.privacy.accounting.AdvancedComposition;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code personalized}: the guarantee of one agent of private personalized coordinate descent (spec 6.3), whose
 * releases are each pure epsilon_t-DP (Laplace): their plain sum, and the advanced composition of Kairouz, Oh and
 * Viswanath (the three-way minimum of spec 2.3) at delta. The output ends with {@code epsilon_sum=<value>} and
 * {@code epsilon=<value>}.
 */
@Command(name = "personalized", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Privacy of one agent of private personalized coordinate descent (record level, replace-one).",
            "Its T releases, each pure epsilon_t-DP (Laplace noise of scale 2 L_0 / (epsilon_t m_i) on the mean local"
                + " gradient), compose to sum_t epsilon_t (delta 0) or, at delta, to the three-way minimum of"
                + " Kairouz-Oh-Viswanath. Give either --per-release-epsilon with --releases, or the list --epsilons."})
public final class AccountPersonalizedCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(converter = Converters.Positive.class, names = "--per-release-epsilon", paramLabel = "E",
            description = "epsilon of every release (with --releases)")
    private Double perRelease;

    @Option(converter = Converters.PositiveLong.class, names = "--releases", paramLabel = "T", description = "number of releases")
    private Long releases;

    @Option(converter = Converters.Positive.class, names = "--epsilons", split = ",", paramLabel = "E1,E2,...",
            description = "the epsilon of each release")
    private List<Double> epsilons;

    @Option(converter = Converters.Probability.class, names = "--delta", required = true, paramLabel = "D",
            description = "delta-bar of the advanced composition (the paper: e^-5 = 0.00674)")
    private double delta;

    @Override
    public Integer call() {
        boolean uniform = perRelease != null || releases != null;
        if (uniform == (epsilons != null) || (uniform && (perRelease == null || releases == null))) {
            throw new ParameterException(spec.commandLine(), "give either --per-release-epsilon E with --releases T, or --epsilons"
                    + " E1,E2,...");
        }
        double sum;
        double advanced;
        long count;
        if (uniform) {
            count = releases;
            sum = perRelease * releases;
            advanced = AdvancedComposition.epsilon(perRelease, releases, delta);
        } else {
            double[] e = epsilons.stream().mapToDouble(Double::doubleValue).toArray();
            count = e.length;
            sum = java.util.Arrays.stream(e).sum();
            advanced = AdvancedComposition.epsilon(e, delta);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "Privacy statement: one agent of private personalized coordinate descent, record-level DP of its%n"
                + "  broadcast models against everything sent on the network, all other agents colluding (replace-one)%n");
        out.printf(Locale.ROOT, "  %d releases, each pure epsilon_t-DP%s%n", count,
                uniform ? String.format(Locale.ROOT, " with epsilon_t = %s", perRelease) : "");
        out.printf(Locale.ROOT, "  plain composition: (%s, 0)-DP%n", EpsilonFormat.upwardSignificant(sum, 6));
        out.printf(Locale.ROOT, "  advanced composition (Kairouz-Oh-Viswanath, three-way minimum): (%s, %s)-DP%s%n",
                EpsilonFormat.upwardSignificant(advanced, 6), delta,
                advanced == sum ? "; the plain sum is the smallest of the three here" : "");
        out.println("  Assumes the loss is L_0-Lipschitz in L1 (for the logistic loss: every feature row has L1 norm <= L_0).");
        out.printf(Locale.ROOT, "epsilon_sum=%s%nepsilon=%s%n", sum, advanced);
        out.flush();
        return 0;
    }
}
