package org.dpdl4j.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.Map;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Calibrator;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.DpSgd;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.PrivacyAccountant;
import org.dpdl4j.privacy.accounting.PrivacyStatement;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dpdl4j account}: privacy accounting from the command line. {@code dp-sgd} prints the privacy
 * statement of a DP-SGD run, one {@code epsilon_<accountant>=} line per accountant, and ends with {@code epsilon=} (the
 * tightest valid bound) and {@code epsilon_improved=} lines;
 * {@code calibrate} finds the smallest noise multiplier for a target epsilon and ends with a
 * {@code noise_multiplier=} line (both with Poisson sampling and add/remove-one-example adjacency, the sampling given
 * as a rate and steps or as batch size, data-set size and epochs); {@code decor}, {@code recal} and
 * {@code personalized} are the accountants of Decor's correlated noise, DP-RECAL and private personalized learning.
 */
@Command(name = "account", mixinStandardHelpOptions = true,
        description = {"Privacy accounting: DP-SGD (the tightest of Renyi DP and privacy loss distributions, with Poisson"
                + " sampling) and its noise calibration, Decor's correlated noise (SecRDP and its exact Gaussian curve), DP-RECAL"
                + " (its decaying Gaussian publications) and private personalized learning (composition of pure DP"
                + " releases)."},
        subcommands = {AccountCommand.DpSgdCommand.class, AccountCommand.CalibrateCommand.class, AccountDecorCommand.class, AccountRecalCommand.class,
                AccountPersonalizedCommand.class})
public final class AccountCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: use dp-sgd, calibrate, decor, recal or personalized");
    }

    /** Rejects a delta outside (0, 1) as a picocli parameter error (exit code 2). */
    private static void requireDelta(CommandSpec spec, double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new ParameterException(spec.commandLine(), "--delta must lie in (0, 1), got " + delta
                    + " (typically below 1 / dataset size)");
        }
    }

    /** Prints how the rate and steps follow from batch size, data-set size and epochs, when given that way. */
    private static void printDerivation(PrintWriter out, DpSgdSampling.Schedule schedule) {
        if (!schedule.derivation().isEmpty()) {
            out.println(schedule.derivation());
        }
    }

    @Command(name = "dp-sgd", mixinStandardHelpOptions = true,
            description = {"Epsilon of a DP-SGD run with Poisson sampling.",
                    "T steps, each adding Gaussian noise of std z x clipping norm to the sum of clipped per-example"
                            + " gradients of a Poisson sample of rate q; give q and T, or the batch size, data-set size and"
                            + " epochs they follow from. Prints the privacy statement, then one line per accountant that"
                            + " prices the run ('epsilon_rdp=', 'epsilon_rdp_improved=', 'epsilon_pld=', ...), the"
                            + " accountant of the tightest bound ('epsilon_accountant='), and last 'epsilon=' (the tightest"
                            + " valid bound) and 'epsilon_improved=' (the same with Renyi DP's improved conversion, Balle"
                            + " et al. 2020)."})
    static final class DpSgdCommand implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private DpSgdSampling sampling;

        @Option(converter = Converters.Positive.class, names = "--noise-multiplier", required = true, paramLabel = "Z",
                description = "Noise standard deviation divided by the clipping norm, > 0.")
        private double noiseMultiplier;

        @Option(converter = Converters.Probability.class, names = "--delta", required = true, paramLabel = "D", description = "Target delta in (0, 1).")
        private double delta;

        @Override
        public Integer call() {
            DpSgdSampling.Schedule schedule = sampling.resolve(spec);
            requireDelta(spec, delta);
            if (!(noiseMultiplier > 0)) {
                throw new ParameterException(spec.commandLine(), "--noise-multiplier must be > 0, got "
                        + noiseMultiplier);
            }
            PrivacyStatement statement = PrivacyStatement.forDpSgd(schedule.sampleRate(), noiseMultiplier, schedule.steps(), delta);
            if (Double.isInfinite(statement.standard().epsilon())) {
                // The accountant's upper bound overflowed: printing "Infinity" would look like a result.
                throw new ParameterException(spec.commandLine(), "--noise-multiplier " + noiseMultiplier + " is too small"
                        + " for an epsilon to be computed: this run's epsilon exceeds the largest number a double holds"
                        + " (about 1e308), so it has no meaningful guarantee; use more noise ('dpdl4j account calibrate'"
                        + " finds the noise a target epsilon needs)");
            }
            PrintWriter out = spec.commandLine().getOut();
            printDerivation(out, schedule);
            out.print(statement.text());
            for (Map.Entry<String, EpsilonBound> b : statement.standardBounds().entrySet()) {
                out.println("epsilon_" + b.getKey() + "=" + b.getValue().epsilon());
                if (b.getKey().equals(RdpAccountant.NAME) && statement.improvedBounds().containsKey(RdpAccountant.NAME)) {
                    out.println("epsilon_rdp_improved=" + statement.improvedBounds().get(RdpAccountant.NAME).epsilon());
                }
            }
            out.println("epsilon_accountant=" + statement.standard().accountant());
            out.println("epsilon=" + statement.standard().epsilon());
            out.println("epsilon_improved=" + statement.improved().epsilon());
            out.flush();
            return 0;
        }
    }

    @Command(name = "calibrate", mixinStandardHelpOptions = true,
            description = {"Smallest noise multiplier that meets a target epsilon.",
                    "The smallest z for which T DP-SGD steps with Poisson rate q are (E, D)-DP by the chosen accountant"
                            + " (default: the tightest valid bound); give q and T, or the batch size, data-set size and"
                            + " epochs they follow from. Ends with 'noise_multiplier_rdp=' (Renyi DP alone; left out when Renyi"
                            + " DP cannot certify the target with any noise) and 'noise_multiplier=' (the chosen accountant)."})
    static final class CalibrateCommand implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--target-epsilon", required = true, paramLabel = "E", description = "Target epsilon, > 0.")
        private double targetEpsilon;

        @Option(converter = Converters.Probability.class, names = "--delta", required = true, paramLabel = "D", description = "Target delta in (0, 1).")
        private double delta;

        @Mixin
        private DpSgdSampling sampling;

        @Option(names = "--accountant", defaultValue = AccountantFactory.TIGHTEST, paramLabel = "A",
                description = "tightest (the smallest valid bound of Renyi DP and privacy loss distributions), rdp (Renyi DP"
                        + " alone, the pricing before the others existed) or additive (default: ${DEFAULT-VALUE}).")
        private String accountant;

        @Override
        public Integer call() {
            DpSgdSampling.Schedule schedule = sampling.resolve(spec);
            AccountantFactory accountants;
            try {
                accountants = AccountantFactory.named(accountant);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--accountant: " + e.getMessage(), e);
            }
            double sampleRate = schedule.sampleRate();
            long steps = schedule.steps();
            requireDelta(spec, delta);
            if (!(targetEpsilon > 0) || Double.isInfinite(targetEpsilon)) {
                throw new ParameterException(spec.commandLine(), "--target-epsilon must be a positive finite number,"
                        + " got " + targetEpsilon);
            }
            double z;
            try {
                z = Calibrator.dpSgdNoiseMultiplier(accountants, targetEpsilon, delta, sampleRate, steps);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--target-epsilon " + targetEpsilon + ": " + e.getMessage(), e);
            }
            double zRdp; // for comparison only: Renyi DP may not reach a target the chosen accountant reaches
            try {
                zRdp = accountant.equals(AccountantFactory.RDP) ? z
                        : Calibrator.dpSgdNoiseMultiplier(AccountantFactory.renyi(), targetEpsilon, delta, sampleRate, steps);
            } catch (IllegalArgumentException e) {
                zRdp = Double.NaN;
            }
            PrivacyAccountant achieved = accountants.create(NeighbouringRelation.ADD_OR_REMOVE_ONE)
                    .compose(DpSgd.event(sampleRate, z, steps));
            EpsilonBound bound = achieved.epsilonBound(delta, Conversion.STANDARD);
            PrintWriter out = spec.commandLine().getOut();
            printDerivation(out, schedule);
            out.println("Smallest noise multiplier z (std = z x clipping norm) such that " + steps
                    + " Poisson-sampled Gaussian steps with rate q = " + sampleRate + " are (" + targetEpsilon + ", "
                    + delta + ")-DP for adding or removing one example (accountant: " + accountant + ", relative precision"
                    + " 1e-6, rounded up).");
            out.println(String.format(Locale.ROOT, "Achieved epsilon: %s (from the %s accountant, rounded up).",
                    EpsilonFormat.upward(bound.epsilon(), 6),
                    bound.accountant()));
            if (Double.isNaN(zRdp)) {
                out.println("Renyi DP alone cannot certify this target with any amount of noise.");
            } else {
                if (zRdp != z) {
                    out.println(String.format(Locale.ROOT, "Renyi DP alone needs z = %.6f for the same target: %.1f%% more noise.",
                            zRdp, 100 * (zRdp / z - 1)));
                }
                out.println("noise_multiplier_rdp=" + zRdp);
            }
            out.println("noise_multiplier=" + z);
            out.flush();
            return 0;
        }
    }
}
