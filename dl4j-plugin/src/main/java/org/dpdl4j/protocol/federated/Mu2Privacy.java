package org.dpdl4j.protocol.federated;

import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.accounting.Calibration;
import org.dpdl4j.privacy.accounting.Calibrator;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.accounting.ZCdpEvent;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.LedgerEntry;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;

import java.util.Locale;
import java.util.Objects;

/**
 * The privacy accounting of DP-mu^2-FL (spec 4.4), record level per machine under replace-one adjacency.
 *
 * <p>Conditioned on the public query points, a sample replaced at round tau changes a machine's estimate by
 * {@code 1{t >= tau} (q_tau - q'_tau)}, of norm at most {@code 2S}. So every round is a Gaussian mechanism:
 * <ul>
 *   <li>untrusted server (Thm 5.1): each message {@code dhat^i + N(0, sigma_t^2 I)} costs
 *       {@code (alpha, 2 alpha S^2 / sigma_t^2)}-RDP;</li>
 *   <li>trusted server (Thm 6.1): the aggregate {@code (1/M) sum_i dhat^i + N(0, sigma_t^2 I)} moves by at most
 *       {@code 2S/M}, costing {@code (alpha, 2 alpha S^2 / (M^2 sigma_t^2))}-RDP;</li>
 * </ul>
 * and T rounds compose (adaptively) to one Gaussian mechanism of {@code mu^2 = sum_t 4 S^2 / (c sigma_t^2)} ({@code c = 1}
 * or {@code M^2}; worst case tau = 1), whose Renyi DP curve is {@code alpha rho} with {@code rho = mu^2 / 2}. The ledger
 * records every round as the Gaussian release it is ({@link GaussianEvent}), so the run's accountant prices the
 * composition: by its exact privacy curve by default, or by zCDP's {@code epsilon = rho + 2 sqrt(rho ln(1/delta))} (the
 * papers' Theorems 5.1 and 6.1) with Renyi DP alone. Calibration inverts the accountant's curve in closed form
 * ({@link LedgerAccounting#gaussianMuSquared}); {@link #calibrateWithAccountant} is the Renyi DP calibration done
 * generically, by bisection over the RDP accountant (a finite order grid, so it is never below zCDP's closed form).
 */
public final class Mu2Privacy {
    private final ServerTrust trust;
    private final double sensitivityBound;
    private final int machines;
    private final NoiseSchedule noise;
    private final double delta;
    private final double[] cumulativeRho;   // for per-round schedules: rho after t rounds, t = 0..length
    private final AccountantFactory accountants;

    private Mu2Privacy(ServerTrust trust, double sensitivityBound, int machines, NoiseSchedule noise, double delta,
                       AccountantFactory accountants) {
        this.trust = Objects.requireNonNull(trust, "trust");
        this.accountants = Objects.requireNonNull(accountants, "accountant factory");
        this.noise = Objects.requireNonNull(noise, "noise schedule");
        if (!(sensitivityBound > 0) || Double.isInfinite(sensitivityBound)) {
            throw new IllegalArgumentException("the increment bound S must be a positive finite number, got " + sensitivityBound);
        }
        if (machines < 1) {
            throw new IllegalArgumentException("the number of machines M must be >= 1, got " + machines);
        }
        if (!noise.isPrivate()) {
            throw new IllegalArgumentException("a run without noise (sigma = 0) has no privacy guarantee");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta);
        }
        this.sensitivityBound = sensitivityBound;
        this.machines = machines;
        this.delta = delta;
        if (noise instanceof NoiseSchedule.PerRound perRound) {
            double[] s = perRound.sigmas();
            cumulativeRho = new double[s.length + 1];
            for (int t = 0; t < s.length; t++) {
                cumulativeRho[t + 1] = cumulativeRho[t] + rhoOfRound(s[t]);
            }
        } else {
            cumulativeRho = null;
        }
    }

    /**
     * @param trust            untrusted (Algorithm 1) or trusted (Algorithm 2) server
     * @param sensitivityBound S, the bound on each weighted increment q
     * @param machines         M
     * @param noise            sigma_t
     * @param delta            delta of the reported epsilons
     */
    public static Mu2Privacy of(ServerTrust trust, double sensitivityBound, int machines, NoiseSchedule noise, double delta) {
        return of(trust, sensitivityBound, machines, noise, delta, AccountantFactory.standard());
    }

    /** {@link #of(ServerTrust, double, int, NoiseSchedule, double)} planned as a ledger priced by {@code accountants}. */
    public static Mu2Privacy of(ServerTrust trust, double sensitivityBound, int machines, NoiseSchedule noise, double delta,
                                AccountantFactory accountants) {
        return new Mu2Privacy(trust, sensitivityBound, machines, noise, delta, accountants);
    }

    private double rhoOfRound(double sigma) {
        double scale = trust == ServerTrust.TRUSTED ? (double) machines * machines : 1.0;
        return 2 * sensitivityBound * sensitivityBound / (scale * sigma * sigma);
    }

    /** rho after {@code rounds} rounds: the RDP curve is {@code alpha * rho} at every order alpha &gt; 1. */
    public double rho(long rounds) {
        if (rounds < 0) {
            throw new IllegalArgumentException("rounds must be >= 0, got " + rounds);
        }
        if (cumulativeRho != null) {
            if (rounds >= cumulativeRho.length) {
                throw new IllegalArgumentException(rounds + " rounds exceed the noise schedule's " + (cumulativeRho.length - 1));
            }
            return cumulativeRho[(int) rounds];
        }
        return rounds * rhoOfRound(noise.at(1));
    }

    /** The RDP of {@code rounds} rounds at order alpha: {@code sum_t 2 alpha S^2 / (c sigma_t^2)}. */
    public double rdp(double alpha, long rounds) {
        if (!(alpha > 1) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("RDP order alpha must be a finite number > 1, got " + alpha);
        }
        return alpha * rho(rounds);
    }

    /**
     * What round t releases, as the ledger records it: a Gaussian mechanism of noise multiplier {@code sigma_t / S}
     * (untrusted) or {@code M sigma_t / S} (trusted) under replace-one adjacency, whose sensitivity is twice the bound:
     * {@code rho_t = 2 S^2 / (c sigma_t^2)} in zCDP (Theorems 5.1 and 6.1).
     */
    public DpEvent eventOfRound(long t) {
        double sigma = noise.at(t);
        return new GaussianEvent(trust == ServerTrust.TRUSTED ? machines * sigma / sensitivityBound : sigma / sensitivityBound);
    }

    /** The neighbouring relation of every round: one example replaced. */
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    /** The round's mechanism in words, for the ledger. */
    public String describe() {
        return (trust == ServerTrust.UNTRUSTED ? "mu2 round, untrusted server: every machine's message + N(0, sigma^2)"
                : "mu2 round, trusted server: the average of the machines' messages + N(0, sigma^2)")
                + String.format(Locale.ROOT, ", S = %.6g, M = %d", sensitivityBound, machines);
    }

    /**
     * Epsilon after {@code rounds} rounds of this schedule (standard conversion, exact for the linear curve): what a
     * run's ledger reports after them (planning).
     */
    public double epsilon(long rounds) {
        return bound(rounds, Conversion.STANDARD).epsilon();
    }

    /** How the run's ledger prices these rounds: the accountant this privacy was planned with, under its relation. */
    public LedgerAccounting accounting() {
        return new LedgerAccounting(accountants, relation());
    }

    /** The guarantee after {@code rounds} rounds of this schedule, priced as the run's ledger prices them. */
    public EpsilonBound bound(long rounds, Conversion conversion) {
        if (rounds < 0) {
            throw new IllegalArgumentException("rounds must be >= 0, got " + rounds);
        }
        LedgerAccounting accounting = accounting();
        if (noise instanceof NoiseSchedule.PerRound) {
            PrivacyLedger plan = new PrivacyLedger();
            for (long t = 1; t <= rounds; t++) {
                plan.add(new LedgerEntry(eventOfRound(t), 1, LedgerEntry.ALL_PARTIES, "plan", true, 0));
            }
            return accounting.bound(plan, delta, conversion);
        }
        return accounting.planned(eventOfRound(1), rounds, delta, conversion);
    }

    /**
     * The noise std that makes T rounds {@code (epsilon, delta)}-DP as the default accounting prices them: the exact
     * Gaussian curve's {@code mu(epsilon, delta)} inverted in closed form, {@code sigma^2 = 4 T S^2 / mu^2} (untrusted)
     * or {@code 4 T S^2 / (M^2 mu^2)} (trusted). The trusted sigma is 1/M of the untrusted one. The closed form is moved
     * to the safe side of the target by rounding ({@link Calibrator#safeSide}), in steps of about 1e-12 of itself.
     *
     * @throws IllegalArgumentException if epsilon is not positive and finite, or delta is outside (0, 1)
     */
    public static double calibrate(ServerTrust trust, double sensitivityBound, int machines, long rounds, double epsilon,
                                   double delta) {
        return calibrate(trust, sensitivityBound, machines, rounds, epsilon, delta, AccountantFactory.standard());
    }

    /**
     * {@link #calibrate(ServerTrust, double, int, long, double, double)} for a ledger priced by {@code accountants}: their
     * budget {@code mu^2} at (epsilon, delta), the exact Gaussian curve's or, with Renyi DP alone, zCDP's {@code 2 rho}
     * (then {@code sigma^2 = 2 T S^2 / rho}, the papers' closed form, to the bit), checked as the ledger reports the rounds.
     */
    public static double calibrate(ServerTrust trust, double sensitivityBound, int machines, long rounds, double epsilon,
                                   double delta, AccountantFactory accountants) {
        requireRun(sensitivityBound, machines, rounds);
        double muSquared = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE).gaussianMuSquared(epsilon, delta);
        double untrusted = sensitivityBound * Math.sqrt(4.0 * rounds / muSquared);
        double closedForm = trust == ServerTrust.TRUSTED ? untrusted / machines : untrusted;
        // rounding can put the closed form a few bits above the target: checked as the ledger prices the rounds
        return Calibrator.safeSide(closedForm, sigma -> of(trust, sensitivityBound, machines, NoiseSchedule.constant(sigma), delta,
                accountants).epsilon(rounds), epsilon).noise();
    }

    /**
     * The same calibration done generically: bisection ({@link Calibrator}) on the noise multiplier
     * {@code z = sigma / S} (untrusted) or {@code z = M sigma / S} (trusted) of T replace-one Gaussian events in
     * the {@link RdpAccountant}. The accountant minimises over a finite order grid, so the result is at least zCDP's
     * closed form (the calibration with Renyi DP, {@link AccountantFactory#renyi()}) and within a fraction of a percent
     * of it.
     */
    public static double calibrateWithAccountant(ServerTrust trust, double sensitivityBound, int machines, long rounds,
                                                 double epsilon, double delta) {
        requireRun(sensitivityBound, machines, rounds);
        Calibration c = new LedgerAccounting(AccountantFactory.rdp(), NeighbouringRelation.REPLACE_ONE)
                .calibrate(z -> new GaussianEvent(z), rounds, delta, epsilon);
        double sigma = c.noise() * sensitivityBound;
        return trust == ServerTrust.TRUSTED ? sigma / machines : sigma;
    }

    private static void requireRun(double sensitivityBound, int machines, long rounds) {
        if (!(sensitivityBound > 0) || Double.isInfinite(sensitivityBound)) {
            throw new IllegalArgumentException("the increment bound S must be a positive finite number, got " + sensitivityBound);
        }
        if (machines < 1) {
            throw new IllegalArgumentException("the number of machines M must be >= 1, got " + machines);
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("the number of rounds T must be >= 1, got " + rounds);
        }
    }

    /**
     * The zCDP rho of the rounds a run's ledger holds: what its rounds spent, segments of a resumed run with other
     * settings included (the statement's rho, never the current settings times the rounds done). Rounds are Gaussian
     * releases under replace-one ({@code 2 / z^2} each); checkpoints written before they were recorded so hold zCDP
     * statements of the same rho.
     */
    private static double recordedRho(RunLedger ledger) {
        double rho = 0;
        for (org.dpdl4j.privacy.ledger.LedgerEntry e : ledger.ledger().entries()) {
            double round;
            if (e.event() instanceof GaussianEvent g) {
                round = 2 / (g.noiseMultiplier() * g.noiseMultiplier());
            } else if (e.event() instanceof ZCdpEvent z) {
                round = z.rho();
            } else {
                throw new IllegalStateException("a mu2 ledger holds Gaussian rounds only, found " + e.event());
            }
            rho += round * e.count();
        }
        return rho;
    }

    /** The statement of a run: its setting, and the epsilon its ledger has spent. */
    public String statement(RunLedger ledger, long rounds, Mu2Constants constants) {
        StringBuilder s = new StringBuilder();
        s.append("Privacy statement: DP-mu^2-FL, ").append(trust == ServerTrust.UNTRUSTED
                ? "untrusted server (Algorithm 1): every machine adds N(0, sigma^2 I) to each message dhat^i"
                : "trusted server (Algorithm 2): the server adds N(0, sigma^2 I) to the average of the machines' dhat^i").append('\n');
        s.append("  Protected: one training example of one machine (record level, per machine); neighbouring datasets differ by")
                .append(" replacing one example by arbitrary other data [REPLACE_ONE].\n");
        s.append("  Observer: ").append(trust == ServerTrust.UNTRUSTED
                ? "the server and any eavesdropper, who see every message a machine sends."
                : "the other machines, who see the query points the server broadcasts (the server itself is trusted).").append('\n');
        s.append("  Sampling: none; every example is used exactly once, in a fixed data-independent order (one pass).\n");
        if (constants != null) {
            s.append("  Constants: ").append(constants.describe()).append('\n');
        }
        s.append(String.format(Locale.ROOT, "  Machines M = %d, rounds T = %d, sigma = %s%n", machines, rounds,
                noise instanceof NoiseSchedule.Constant c ? String.format(Locale.ROOT, "%.6g", c.sigma()) : "per round"));
        double rho = recordedRho(ledger);
        s.append(String.format(Locale.ROOT, "  Every round is a Gaussian mechanism of sensitivity 2S%s; the rounds the ledger holds"
                + " have RDP eps(alpha) = alpha * rho with rho = sum_t 2 S^2 / (%ssigma_t^2) = %s, that of one Gaussian"
                + " mechanism of mu = sqrt(2 rho) = %s (worst case: the replaced example is used in round 1)%n",
                trust == ServerTrust.TRUSTED ? "/M" : "", trust == ServerTrust.TRUSTED ? "M^2 " : "",
                EpsilonFormat.upwardSignificant(rho, 6), EpsilonFormat.upwardSignificant(Math.sqrt(2 * rho), 6)));
        s.append(String.format(Locale.ROOT, "  For comparison, zCDP's conversion of that rho (the papers' Theorems 5.1 and 6.1): epsilon"
                + " = %s at delta = %s; the guarantee is the ledger's \"spent\" line below, priced by its accountant%n",
                EpsilonFormat.upward(ZCdp.epsilon(rho, delta)), delta));
        s.append("Assumptions and limits:\n");
        s.append("  - The sensitivity 2S holds conditioned on the public query points; the final model is post-processing.\n");
        s.append("  - Fresh noise every round from a cryptographically secure source; seeded noise voids the guarantee.\n");
        s.append("  - G, L, D and the feature bound must be public (not chosen from the private data); hyperparameter choices"
                + " are not accounted for.\n");
        return s.toString();
    }

    public ServerTrust trust() {
        return trust;
    }

    public double sensitivityBound() {
        return sensitivityBound;
    }

    public int machines() {
        return machines;
    }

    public double delta() {
        return delta;
    }
}
