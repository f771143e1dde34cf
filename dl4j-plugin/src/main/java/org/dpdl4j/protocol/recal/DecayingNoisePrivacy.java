package org.dpdl4j.protocol.recal;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.Locale;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Calibrator;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.ledger.Charge;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.LedgerEntry;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;

/**
 * The accounting of agents that publish noisy messages with a decaying Gaussian noise (spec 5.4, DP-RECAL's Lemma 5
 * and Theorem 3, and the synchronous baselines under the same rule): agent i's m-th publication has L2 sensitivity
 * {@code Delta_i} and noise std {@code sigma_i zeta^((m-1)/2)}, a Gaussian mechanism of
 * {@code mu_{i,m} = Delta_i / (sigma_i zeta^((m-1)/2))}, i.e. {@code rho_{i,m} = mu_{i,m}^2 / 2}-zCDP; an agent's
 * publications compose sequentially (to one Gaussian of {@code mu_i^2 = sum_m mu_{i,m}^2 = 2 rho_i}), agents hold
 * disjoint data (parallel composition: the run's guarantee is the most exposed agent's). The ledger records every
 * publication as the Gaussian release it is, so the run's accountant prices it: by the exact Gaussian curve by default,
 * by the paper's {@code epsilon = rho + 2 sqrt(rho ln(1/delta))} with Renyi DP alone. Record-level, replace-one
 * adjacency. How the sensitivity of an agent's successive publications grows is {@link PublicationSensitivity}: constant
 * with the state an agent continues from conditioned on, as in the paper, or growing with the drift of that state, the
 * proven bound of least squares.
 */
public final class DecayingNoisePrivacy {
    private final double[] sensitivity;
    private final double[] sigma;
    private final double zeta;
    private final PublicationSensitivity growth;

    /** The paper's accounting ({@link PublicationSensitivity#CONDITIONED_ON_STATE}). */
    public DecayingNoisePrivacy(double[] sensitivity, double[] sigma, double zeta) {
        this(sensitivity, sigma, zeta, PublicationSensitivity.CONDITIONED_ON_STATE);
    }

    /**
     * @param sensitivity every agent's Delta_i, the sensitivity of its first publication
     * @param sigma       every agent's first-publication noise std sigma_i
     * @param zeta        the attenuation coefficient in (0, 1]
     * @param growth      how the sensitivity of later publications grows
     */
    public DecayingNoisePrivacy(double[] sensitivity, double[] sigma, double zeta, PublicationSensitivity growth) {
        if (sensitivity.length != sigma.length) {
            throw new IllegalArgumentException("give one sensitivity and one sigma per agent");
        }
        for (int i = 0; i < sigma.length; i++) {
            if (!(sigma[i] > 0) || Double.isInfinite(sigma[i]) || !(sensitivity[i] > 0) || Double.isInfinite(sensitivity[i])) {
                throw new IllegalArgumentException("agent " + i + ": sigma and the sensitivity must be positive and finite, got "
                        + sigma[i] + " and " + sensitivity[i]);
            }
        }
        requireZeta(zeta);
        this.sensitivity = sensitivity.clone();
        this.sigma = sigma.clone();
        this.zeta = zeta;
        this.growth = java.util.Objects.requireNonNull(growth, "growth");
    }

    static void requireZeta(double zeta) {
        if (!(zeta > 0 && zeta <= 1)) {
            throw new IllegalArgumentException("the noise attenuation zeta must lie in (0, 1], got " + zeta);
        }
    }

    private static void requirePublication(double zeta, long m) {
        if (m < 1) {
            throw new IllegalArgumentException("publications are counted from 1, got " + m);
        }
        requireZeta(zeta);
    }

    /** rho of the m-th publication (m >= 1) with sensitivity {@code delta} and first std {@code sigma}, the paper's way. */
    public static double publicationRho(double sensitivity, double sigma, double zeta, long m) {
        return publicationRho(sensitivity, sigma, zeta, m, PublicationSensitivity.CONDITIONED_ON_STATE);
    }

    /** rho of the m-th publication (m >= 1) with first sensitivity {@code delta} growing as {@code growth} says. */
    public static double publicationRho(double sensitivity, double sigma, double zeta, long m, PublicationSensitivity growth) {
        requirePublication(zeta, m);
        return ZCdp.gaussianRho(sensitivity * growth.factor(m), sigma) / Math.pow(zeta, m - 1);
    }

    /** {@code sum_{m=1..K} zeta^-(m-1)} = {@code (zeta^-K - 1) / (zeta^-1 - 1)}; K when zeta = 1. */
    public static double decaySum(double zeta, long publications) {
        return decaySum(zeta, publications, PublicationSensitivity.CONDITIONED_ON_STATE);
    }

    /** {@code sum_{m=1..K} factor(m)^2 zeta^-(m-1)} with the factors of {@code growth}. */
    public static double decaySum(double zeta, long publications, PublicationSensitivity growth) {
        requireZeta(zeta);
        if (publications < 0) {
            throw new IllegalArgumentException("the number of publications must be >= 0, got " + publications);
        }
        return growth.decaySum(zeta, publications);
    }

    /** rho of K publications (Theorem 3 for one agent): {@code Delta^2 / (2 sigma^2) * decaySum(zeta, K)}. */
    public static double rho(double sensitivity, double sigma, double zeta, long publications) {
        return rho(sensitivity, sigma, zeta, publications, PublicationSensitivity.CONDITIONED_ON_STATE);
    }

    /** rho of K publications whose sensitivity grows as {@code growth} says. */
    public static double rho(double sensitivity, double sigma, double zeta, long publications, PublicationSensitivity growth) {
        return ZCdp.gaussianRho(sensitivity, sigma) * decaySum(zeta, publications, growth);
    }

    /**
     * The smallest first-publication std {@code sigma} such that K publications stay within (epsilon, delta) as the
     * default accounting prices them: {@code sigma^2 = Delta^2 decaySum(zeta, K) / mu^2} with the exact Gaussian curve's
     * {@code mu(epsilon, delta)}, rounded up until the achieved epsilon is at most the target, both in closed form and as a
     * run's ledger adds the publications up, one by one ({@link #ledgerEpsilon}), which rounds differently.
     */
    public static double calibrate(double sensitivity, double zeta, long publications, double epsilon, double delta) {
        return calibrate(sensitivity, zeta, publications, epsilon, delta, AccountantFactory.standard());
    }

    /**
     * {@link #calibrate(double, double, long, double, double)} for a ledger priced by {@code accountants}: their budget
     * {@code mu^2} at (epsilon, delta), the exact Gaussian curve's or, with Renyi DP alone, zCDP's {@code 2 rho} (then
     * {@code sigma^2 = Delta^2 decaySum(zeta, K) / (2 rho)}, the paper's Theorem 3), checked as the ledger adds the
     * publications up (which may move it by a step of about 1e-12 of itself, as rounding differs).
     */
    public static double calibrate(double sensitivity, double zeta, long publications, double epsilon, double delta,
                                   AccountantFactory accountants) {
        return calibrate(sensitivity, zeta, publications, epsilon, delta, accountants, PublicationSensitivity.CONDITIONED_ON_STATE);
    }

    /** {@link #calibrate(double, double, long, double, double, AccountantFactory)} for publications growing as {@code growth} says. */
    public static double calibrate(double sensitivity, double zeta, long publications, double epsilon, double delta,
                                   AccountantFactory accountants, PublicationSensitivity growth) {
        if (publications < 1) {
            throw new IllegalArgumentException("calibrate for at least one publication, got " + publications);
        }
        LedgerAccounting accounting = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE);
        double muSquared = accounting.gaussianMuSquared(epsilon, delta);
        double s = sensitivity * Math.sqrt(decaySum(zeta, publications, growth) / muSquared);
        if (!Double.isFinite(s)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "no finite noise keeps %d publications with zeta = %s"
                    + " within epsilon = %s: zeta^-K overflows; raise zeta towards 1 or publish less", publications, zeta, epsilon));
        }
        double closedForm = Calibrator.safeSide(s, x -> closedFormEpsilon(sensitivity, x, zeta, publications, delta,
                accounting.pricesGaussiansExactly(), growth), epsilon).noise();
        return Calibrator.safeSide(closedForm, x -> ledgerEpsilon(sensitivity, x, zeta, publications, delta, accountants, growth),
                epsilon).noise();
    }

    /**
     * The epsilon of K publications in closed form: the exact Gaussian curve at {@code mu = sqrt(2 rho)}, or zCDP's
     * conversion of rho.
     */
    private static double closedFormEpsilon(double sensitivity, double sigma, double zeta, long publications, double delta,
                                            boolean exactCurve, PublicationSensitivity growth) {
        double rho = rho(sensitivity, sigma, zeta, publications, growth);
        return exactCurve ? GaussianPrivacyCurve.epsilon(Math.sqrt(2 * rho), delta) : ZCdp.epsilon(rho, delta);
    }

    /** The epsilon of K publications of one agent as its run's ledger, priced by {@code accountants}, adds them up. */
    static double ledgerEpsilon(double sensitivity, double sigma, double zeta, long publications, double delta,
                                AccountantFactory accountants, PublicationSensitivity growth) {
        PrivacyLedger plan = new PrivacyLedger();
        for (long m = 1; m <= publications; m++) {
            plan.add(new LedgerEntry(publicationEvent(sensitivity, sigma, zeta, m, growth), 1, LedgerEntry.ALL_PARTIES, "plan", true, 0));
        }
        return new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE).bound(plan, delta, Conversion.STANDARD).epsilon();
    }

    /**
     * The m-th publication of first sensitivity {@code Delta} (growing as {@code growth} says) and first std
     * {@code sigma}, as the ledger records it: a Gaussian release under replace-one, whose noise multiplier is the std
     * over half the m-th sensitivity (the event's bound C, a replaced record moving the sum by 2C).
     */
    static GaussianEvent publicationEvent(double sensitivity, double sigma, double zeta, long m, PublicationSensitivity growth) {
        requirePublication(zeta, m);
        return new GaussianEvent(sigma * Math.pow(zeta, (m - 1) / 2.0) / (sensitivity * growth.factor(m) / 2));
    }

    /** The Gaussian release of agent i's m-th publication. */
    public GaussianEvent publication(int agent, long m) {
        return publicationEvent(sensitivity[agent], sigma[agent], zeta, m, growth);
    }

    /** Agent i's m-th publication, as the ledger charges it. */
    public Charge publicationOf(int agent, long m) {
        return new Charge(agent, publication(agent, m), describe());
    }

    /** The m-th publication of every agent, published together (the synchronous baselines). */
    public List<Charge> publicationOfAll(long m) {
        return IntStream.range(0, agents()).mapToObj(i -> publicationOf(i, m)).toList();
    }

    /** The ledger after {@code publications} synchronous publications of every agent. */
    public PrivacyLedger plannedSynchronous(long publications, boolean secureNoise) {
        return PrivacyLedger.planned(publications, step -> publicationOfAll(step + 1), secureNoise);
    }

    /**
     * The ledger after the baton has followed {@code path}, each iteration's active agent publishing its next message,
     * spent into {@code fresh} (an empty ledger with the run's accounting and budget): an agent whose next publication
     * would exceed the budget stops publishing, as the run stops it. The path is drawn without the data, and the
     * budget is priced without it too, so this is the run's ledger after every iteration.
     */
    public PrivacyLedger plannedRelay(int[] path, RunLedger fresh) {
        long[] published = new long[agents()];
        boolean[] exhausted = new boolean[agents()];
        for (int k = 0; k < path.length; k++) {
            int i = path[k];
            if (exhausted[i]) {
                continue;
            }
            try {
                fresh.spend(k, List.of(publicationOf(i, published[i] + 1)));
                published[i]++;
            } catch (PrivacyBudgetExceededException over) {
                exhausted[i] = true;
            }
        }
        return fresh.ledger();
    }

    /** The noise std of agent i's m-th publication. */
    public double std(int agent, long m) {
        return sigma[agent] * Math.pow(zeta, (m - 1) / 2.0);
    }

    /** rho of agent i after K publications. */
    public double rhoOf(int agent, long publications) {
        return rho(sensitivity[agent], sigma[agent], zeta, publications, growth);
    }

    /** The run's rho after the given publication counts: the largest agent's. */
    public double rho(long[] publications) {
        double worst = 0;
        for (int i = 0; i < sigma.length; i++) {
            worst = Math.max(worst, rhoOf(i, publications[i]));
        }
        return worst;
    }

    public double sensitivity(int agent) {
        return sensitivity[agent];
    }

    public double sigma(int agent) {
        return sigma[agent];
    }

    public double zeta() {
        return zeta;
    }

    /** How the sensitivity of an agent's later publications grows. */
    public PublicationSensitivity growth() {
        return growth;
    }

    public int agents() {
        return sigma.length;
    }

    /** One line for the ledger's entries. */
    public String describe() {
        return String.format(Locale.ROOT, "Gaussian publication, sensitivity %s%s, std %s x zeta^((m-1)/2), zeta = %s",
                uniformOrRange(sensitivity), growth == PublicationSensitivity.STATE_DRIFT ? " x (m+1)/2" : "",
                uniformOrRange(sigma), zeta);
    }

    private static String uniformOrRange(double[] v) {
        double min = Arrays.stream(v).min().orElse(0);
        double max = Arrays.stream(v).max().orElse(0);
        return min == max ? String.format(Locale.ROOT, "%.6g", min) : String.format(Locale.ROOT, "%.6g..%.6g", min, max);
    }
}
