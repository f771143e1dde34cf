package org.dpdl4j.protocol.randomwalk;

import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.ledger.Charge;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyLedger;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The accounting of random-walk SGD (spec 7.4), user level (a party's dataset), replace-one.
 * <ul>
 *   <li><b>Local DP (default, exact)</b>: each visit of party l releases its clipped gradient plus
 *       {@code N(0, sigma^2 I)}: {@code (alpha, 2 alpha L_F^2 / sigma^2)}-RDP; l's guarantee composes over its
 *       realised visits {@code N_l} (the path is drawn in advance, independently of the data). The run's epsilon is
 *       the worst party's.</li>
 *   <li><b>Network DP (optional)</b>: {@link NetworkDpBound}, composed over the same visits, reported next to the
 *       LDP epsilon and never in its place; it needs review before being relied on.</li>
 * </ul>
 */
public final class RandomWalkPrivacy {
    private final long[] visits;
    private final double gradientBound;
    private final double sigma;
    private final double delta;

    /**
     * @param visits        how often each party holds the token
     * @param gradientBound L_F
     * @param sigma         noise std
     * @param delta         delta of every epsilon
     */
    public RandomWalkPrivacy(long[] visits, double gradientBound, double sigma, double delta) {
        if (visits.length == 0) {
            throw new IllegalArgumentException("visit counts of at least one party are needed");
        }
        if (!(gradientBound > 0) || Double.isInfinite(gradientBound)) {
            throw new IllegalArgumentException("the gradient bound L_F must be a positive finite number, got " + gradientBound);
        }
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("a private random walk needs noise sigma > 0, got " + sigma);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta);
        }
        this.visits = visits.clone();
        this.gradientBound = gradientBound;
        this.sigma = sigma;
        this.delta = delta;
    }


    /** {@code c = 2 L_F^2 / sigma^2}: the RDP slope (zCDP rho) of one visit. */
    public double rhoPerVisit() {
        return 2 * gradientBound * gradientBound / (sigma * sigma);
    }

    /** The most visited party's visit count. */
    public long maxVisits() {
        return Arrays.stream(visits).max().orElseThrow();
    }

    /**
     * What one visit releases, as the ledger records it against the visited party: its clipped gradient plus
     * {@code N(0, sigma^2 I)}, a Gaussian mechanism with noise multiplier {@code sigma / L_F} under replace-one.
     */
    public DpEvent perVisit() {
        return new GaussianEvent(sigma / gradientBound);
    }

    /** One visit of {@code party}, as the ledger charges it. */
    public Charge visitOf(int party) {
        return new Charge(party, perVisit(), describe());
    }

    /** The ledger of a walk along {@code path} once every hop is taken: each hop charges one visit to its holder. */
    public PrivacyLedger plannedLedger(int[] path, boolean secureNoise) {
        return PrivacyLedger.planned(path.length, step -> List.of(visitOf(path[(int) step])), secureNoise);
    }

    /** The neighbouring relation of every visit: one party's data replaced. */
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    /** A visit in words, for the ledger. */
    public String describe() {
        return String.format(Locale.ROOT, "random-walk visit: the holder's gradient clipped to L_F = %.6g + N(0, %.6g^2)",
                gradientBound, sigma);
    }

    /** Local-DP epsilon of a party after its visits (exact: linear RDP), priced as the run's ledger prices it. */
    public double ldpEpsilon(int party) {
        return LedgerAccounting.standard(relation()).plannedEpsilon(perVisit(), visits[party], delta);
    }

    /** Local-DP epsilon of the run: the worst party's. */
    public double ldpEpsilon() {
        return LedgerAccounting.standard(relation()).plannedEpsilon(perVisit(), maxVisits(), delta);
    }

    /**
     * The noise std that keeps the most visited party within (epsilon, delta) as the default accounting prices its
     * visits (as {@link #ldpEpsilon()} prices them).
     */
    public static double calibrate(long maxVisits, double gradientBound, double epsilon, double delta) {
        return calibrate(maxVisits, gradientBound, epsilon, delta, LedgerAccounting.standard(NeighbouringRelation.REPLACE_ONE));
    }

    /**
     * The noise std that keeps the most visited party within (epsilon, delta) as {@code accounting} (the run's ledger's)
     * prices its visits, so that the walk spends its target and never more. A visit of noise std sigma on a gradient
     * clipped to L_F moves by at most {@code 2 L_F}, a Gaussian of {@code mu = 2 L_F / sigma}, and N_max visits compose
     * to {@code mu^2 = 4 N_max L_F^2 / sigma^2}: so {@code sigma = L_F sqrt(4 N_max / mu^2)} with the ledger's budget
     * {@link LedgerAccounting#gaussianMuSquared} (the exact Gaussian curve's by default; zCDP's {@code 2 rho}, i.e.
     * {@code sigma = L_F sqrt(2 N_max / rho)}, with Renyi DP), moved to the safe side of rounding
     * ({@link LedgerAccounting#safeSide}).
     */
    public static double calibrate(long maxVisits, double gradientBound, double epsilon, double delta, LedgerAccounting accounting) {
        if (maxVisits < 1) {
            throw new IllegalArgumentException("no party is visited: nothing to calibrate");
        }
        double closedForm = gradientBound * Math.sqrt(4.0 * maxVisits / accounting.gaussianMuSquared(epsilon, delta));
        return accounting.safeSide(closedForm, s -> new GaussianEvent(s / gradientBound), maxVisits, delta, epsilon).noise();
    }

    /** The per-contribution network-DP curve on the default RDP orders (see {@link NetworkDpBound}). */
    public double[] networkCurve() {
        return NetworkDpBound.perContribution(RdpAccountant.defaultOrders(), visits.length, rhoPerVisit());
    }

    /**
     * The optional network-DP epsilon of the worst party, composed over its visits and converted like any RDP curve.
     *
     * @param smoothness beta of the local losses
     * @param stepSize   the walk's constant gamma; must satisfy {@code gamma <= 2 / beta}
     * @throws IllegalArgumentException if the step is too large for the bound's non-expansiveness assumption
     */
    public EpsilonBound networkEpsilon(double smoothness, double stepSize) {
        if (!(smoothness > 0) || Double.isInfinite(smoothness)) {
            throw new IllegalArgumentException("the network-DP bound needs the smoothness beta of the losses (> 0, finite), got " + smoothness);
        }
        if (!(stepSize <= 2 / smoothness)) {
            throw new IllegalArgumentException("the network-DP bound assumes non-expansive steps, gamma <= 2 / beta = " + (2 / smoothness)
                    + ", but gamma = " + stepSize + "; use a smaller step or report the LDP epsilon only");
        }
        RdpAccountant accountant = new RdpAccountant(NeighbouringRelation.REPLACE_ONE);
        return accountant.epsilonBound(networkCurve(), maxVisits(), delta, Conversion.STANDARD);
    }

    /** Both numbers, the LDP one first; the network-DP one is labelled as needing review. */
    public String statement(double smoothness, double stepSize) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "Random-walk SGD: L_F = %.6g, sigma = %.6g, K = %d parties, max visits = %d, delta = %s%n",
                gradientBound, sigma, visits.length, maxVisits(), delta));
        s.append(String.format(Locale.ROOT, "  local DP (exact, the guarantee): epsilon = %s%n", EpsilonFormat.upward(ldpEpsilon())));
        try {
            s.append(String.format(Locale.ROOT, "  network DP (derived bound, NEEDS REVIEW, not a guarantee yet): epsilon = %s%n",
                    EpsilonFormat.upward(networkEpsilon(smoothness, stepSize).epsilon())));
        } catch (IllegalArgumentException e) {
            s.append("  network DP: not applicable (").append(e.getMessage()).append(")\n");
        }
        return s.toString();
    }
}
