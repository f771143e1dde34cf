package org.dpdl4j.protocol.federated;

import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Calibration;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.RunLedger;

import java.util.Locale;
import java.util.Objects;

/**
 * The accounting of DP-FedAvg and GOPA averaging (spec 7.2-7.3), user level (a client's whole dataset):
 * <ul>
 *   <li><b>central DP</b> (trusted server): each round is the Gaussian mechanism on the sum of the participants'
 *       updates clipped to S, noise std zS. Under the client sampling's own analysis: every client
 *       (replace-one, {@code 2 alpha / z^2} per round), Poisson sampling (the sampled Gaussian, add/remove-one
 *       client), or fixed-size sampling (Wang-Balle-Kasiviswanathan, replace-one);</li>
 *   <li><b>local DP</b> (untrusted server): each client's message {@code Clip_S(Delta_k) + N(0, (zS)^2 I)} is a
 *       replace-one Gaussian mechanism, {@code 2 alpha / z^2} per message. The server sees who sends, so client
 *       sampling amplifies nothing; every round is counted (an upper bound on any client's participations);</li>
 *   <li><b>GOPA</b>: each round is GOPA's correlated Gaussian with {@code kappa} from {@link GopaAccountant} and
 *       contribution S under replace-one: {@code 2 alpha S^2 kappa} per round.</li>
 * </ul>
 */
public final class FedAvgPrivacy {
    private final FedAvgVariant variant;
    private final DpEvent perRound;
    private final NeighbouringRelation relation;
    private final GopaKappa kappa;
    private final String sampling;

    private FedAvgPrivacy(FedAvgVariant variant, DpEvent perRound, NeighbouringRelation relation, GopaKappa kappa, String sampling) {
        this.variant = variant;
        this.perRound = perRound;
        this.relation = relation;
        this.kappa = kappa;
        this.sampling = sampling;
    }

    /**
     * @param config  the run (a private variant)
     * @param clients N
     * @param gopa    GOPA's accountant (GOPA only, else null)
     */
    public static FedAvgPrivacy of(FedAvgConfig config, int clients, GopaAccountant gopa) {
        Objects.requireNonNull(config, "config");
        GaussianEvent gaussian = new GaussianEvent(config.noiseMultiplier());
        return switch (config.variant()) {
            case FEDAVG -> throw new IllegalArgumentException("plain FedAvg adds no noise and has no privacy guarantee");
            case DP_LOCAL -> new FedAvgPrivacy(config.variant(), gaussian, NeighbouringRelation.REPLACE_ONE, null,
                    config.sampling().describe() + "; the server sees who sends, so sampling is not credited and every round counts");
            case DP_CENTRAL -> new FedAvgPrivacy(config.variant(), config.sampling().centralEvent(clients, gaussian),
                    config.sampling().relation(), null, config.sampling().describe());
            case GOPA -> {
                Objects.requireNonNull(gopa, "GOPA needs its accountant");
                double s = config.clipNorm();
                GopaKappa k = gopa.kappa(config.noiseMultiplier() * s, config.pairwiseMultiplier() * s);
                yield new FedAvgPrivacy(config.variant(), gopaRound(k, s), NeighbouringRelation.REPLACE_ONE, k, config.sampling().describe());
            }
        };
    }

    /** {@link #calibrate(FedAvgVariant, ClientSampling, int, long, double, double, AccountantFactory)} with the default accounting. */
    public static double calibrate(FedAvgVariant variant, ClientSampling sampling, int clients, long rounds, double epsilon,
                                   double delta) {
        return calibrate(variant, sampling, clients, rounds, epsilon, delta, AccountantFactory.standard());
    }

    /**
     * The noise multiplier z that keeps T rounds of DP-FedAvg within (epsilon, delta) as a ledger priced by
     * {@code accountants} reports them. Local DP in closed form: T replace-one Gaussian releases of multiplier z are one
     * Gaussian of {@code mu = 2 sqrt(T) / z}, so {@code z = 2 sqrt(T) / mu(epsilon, delta)} where the accountants price
     * Gaussians by their exact curve, else zCDP's {@code z = sqrt(2 T / rho(epsilon, delta))} (Renyi DP's exact
     * conversion of the linear curve); either moved to the safe side of the target by rounding. Central DP by bisection
     * on the same accounting (privacy loss distributions for Poisson-sampled clients by default): the ledger reports the
     * target, never more.
     */
    public static double calibrate(FedAvgVariant variant, ClientSampling sampling, int clients, long rounds, double epsilon,
                                   double delta, AccountantFactory accountants) {
        if (rounds < 1) {
            throw new IllegalArgumentException("the number of rounds must be >= 1, got " + rounds);
        }
        return switch (variant) {
            case DP_LOCAL -> {
                LedgerAccounting accounting = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE);
                double closedForm = accounting.pricesGaussiansExactly() ? 2 * Math.sqrt(rounds) / GaussianPrivacyCurve.mu(epsilon, delta)
                        : Math.sqrt(2.0 * rounds / ZCdp.rho(epsilon, delta));
                yield accounting.safeSide(closedForm, GaussianEvent::new, rounds, delta, epsilon).noise();
            }
            case DP_CENTRAL -> {
                Calibration c = new LedgerAccounting(accountants, sampling.relation())
                        .calibrate(z -> sampling.centralEvent(clients, new GaussianEvent(z)), rounds, delta, epsilon);
                yield c.noise();
            }
            default -> throw new IllegalArgumentException(variant.cliName() + " is calibrated elsewhere (GOPA: calibrateGopa; FedAvg has no noise)");
        };
    }

    /** GOPA's noise multipliers: {@code sigma_eta / S} (private) and {@code sigma_Delta / S} (pairwise). */
    public record GopaMultipliers(double noise, double pairwise) {
    }

    /**
     * GOPA's noise multipliers for a target: {@link GopaCalibration}'s levels for the kappa budget of the accountants
     * ({@link GopaAccountant#kappaBudget}), checked as the ledger prices the round {@link #of} records for them, and
     * raised together by rounding where that price is above the target ({@link LedgerAccounting#safeSide}): the levels'
     * kappa is the budget's only to rounding, and the exact Gaussian curve is not monotone in its last bits, so a kappa a
     * few units in the last place below the budget can price a few above the target.
     *
     * @param clip S, the bound on each client's update
     */
    public static GopaMultipliers calibrateGopa(GopaAccountant gopa, double clip, long rounds, double epsilon, double delta,
                                                AccountantFactory accountants) {
        GopaCalibration.Levels levels = GopaCalibration.calibrate(gopa, GopaAccountant.kappaBudget(epsilon, delta, rounds, 2 * clip,
                accountants));
        double z = levels.sigmaPrivate() / clip;
        double pairwise = levels.sigmaPairwise() / clip;
        // the multipliers times f, as the run's config will hold them, priced as of() prices them (f = 1 keeps their bits)
        double f = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE).safeSide(1.0,
                x -> gopaRound(gopa.kappa(x * z * clip, x * pairwise * clip), clip), rounds, delta, epsilon).noise();
        return new GopaMultipliers(f * z, f * pairwise);
    }

    /** What a GOPA round releases, as the ledger records it: the correlated Gaussian of kappa, contribution S. */
    private static CorrelatedGaussianEvent gopaRound(GopaKappa kappa, double clip) {
        return new CorrelatedGaussianEvent(kappa.kappa(), clip);
    }

    /**
     * Why the epsilon is not a guarantee, the ledger's mark: GOPA's kappa the largest over sampled colluding sets, an
     * estimate; null when it is a guarantee.
     */
    String notAGuarantee() {
        if (kappa == null || kappa.isGuarantee()) {
            return null;
        }
        return "it is an ESTIMATE: GOPA's kappa is the largest over " + kappa.setsEvaluated() + " randomly sampled colluding sets, not the"
                + " worst case over all of them; --colluding-sets worst gives a guarantee (exact, or Theorem 1's upper bound"
                + " when the sets are too many to enumerate)";
    }

    /** GOPA's kappa (null for DP-FedAvg). */
    public GopaKappa kappa() {
        return kappa;
    }

    public NeighbouringRelation relation() {
        return relation;
    }

    /** What one round releases, as the ledger records it. */
    public DpEvent perRound() {
        return perRound;
    }

    /** Epsilon after {@code rounds} rounds like this run's (planning), priced as a run's ledger prices them. */
    public double plannedEpsilon(long rounds, double delta) {
        return LedgerAccounting.standard(relation).plannedEpsilon(perRound, rounds, delta);
    }

    /** The round's mechanism in words, for the ledger. */
    public String describe(FedAvgConfig config) {
        return switch (variant) {
            case DP_LOCAL -> "DP-FedAvg round, local noise: each client's update clipped to S and + N(0, (zS)^2)";
            case DP_CENTRAL -> "DP-FedAvg round, central noise: the sum of the clipped updates + N(0, (zS)^2)";
            case GOPA -> "GOPA round: clipped updates + pairwise-cancelling + private noise";
            case FEDAVG -> "FedAvg round (no noise)";
        } + String.format(Locale.ROOT, ", S = %.6g, z = %.6g", config.clipNorm(), config.noiseMultiplier());
    }

    /** The statement of a run after {@code count} rounds, with the epsilon its ledger has spent. */
    public String statement(RunLedger ledger, long count, FedAvgConfig config, String adversary) {
        StringBuilder s = new StringBuilder();
        s.append("Privacy statement: ").append(switch (variant) {
            case DP_LOCAL -> "DP-FedAvg with local DP (untrusted server): each client clips its update to S and adds N(0, (zS)^2 I)";
            case DP_CENTRAL -> "DP-FedAvg with central DP (trusted server): the server clips each update to S and adds N(0, (zS)^2 I) to the sum";
            case GOPA -> "GOPA averaging of updates clipped to S: pairwise-cancelling noise on a random k-out graph plus N(0, (zS)^2 I) per client";
            case FEDAVG -> "FedAvg (no privacy)";
        }).append('\n');
        s.append("  Protected: all the data of one client (user level); neighbouring datasets differ by ")
                .append(relation() == NeighbouringRelation.ADD_OR_REMOVE_ONE ? "adding or removing one client [ADD_OR_REMOVE_ONE]"
                        : "replacing one client's data by arbitrary other data [REPLACE_ONE]").append(".\n");
        s.append("  Client sampling: ").append(sampling).append(".\n");
        s.append(String.format(Locale.ROOT, "  S = %.6g, z = %.6g", config.clipNorm(), config.noiseMultiplier()));
        if (variant == FedAvgVariant.GOPA) {
            s.append(String.format(Locale.ROOT, ", sigma_eta = %.6g, sigma_Delta = %.6g", config.noiseMultiplier() * config.clipNorm(),
                    config.pairwiseMultiplier() * config.clipNorm()));
        }
        s.append(", rounds = ").append(count).append('\n');
        if (kappa != null) {
            s.append(String.format(Locale.ROOT, "  Adversary: %s; kappa = %.6g (%s%s)%n", adversary, kappa.kappa(), switch (kappa.basis()) {
                case EXACT_WORST_CASE -> "exact worst case";
                case UPPER_BOUND -> "upper bound: Theorem 1 with vertex deletion, conservative";
                case SAMPLED_SETS -> "maximum over " + kappa.setsEvaluated() + " random colluding sets: an ESTIMATE, not a worst-case guarantee";
            }, kappa.worstSet().isEmpty() ? "" : ", worst colluding set " + kappa.worstSet()));
        }
        EpsilonBound spent = ledger.spent(Conversion.STANDARD);
        s.append(String.format(Locale.ROOT, "  delta = %s%n  epsilon = %s (the %s accountant's %s, as the ledger below says)%n",
                ledger.delta(), EpsilonFormat.upward(spent.epsilon()), spent.accountant(),
                kappa != null && !kappa.isGuarantee() ? "ESTIMATE, from the sampled kappa above," : "bound"));
        s.append("Assumptions and limits:\n");
        s.append("  - Fresh noise every round from a cryptographically secure source (pairwise secrets from X25519); seeded noise voids the guarantee.\n");
        s.append("  - The final model and every broadcast are post-processing of the accounted releases.\n");
        s.append("  - Hyperparameter tuning and repeated runs are not accounted for.\n");
        return s.toString();
    }
}
