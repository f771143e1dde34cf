package org.dpdl4j.protocol.federated;

import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.ZCdp;

import java.util.Arrays;
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

    /** The accounting of a walk's realised path. */
    public static RandomWalkPrivacy of(RandomWalkSgd walk, double delta) {
        return new RandomWalkPrivacy(walk.visitCounts(), walk.config().gradientBound(), walk.config().sigma(), delta);
    }

    /** {@code c = 2 L_F^2 / sigma^2}: the RDP slope (zCDP rho) of one visit. */
    public double rhoPerVisit() {
        return 2 * gradientBound * gradientBound / (sigma * sigma);
    }

    /** The most visited party's visit count. */
    public long maxVisits() {
        return Arrays.stream(visits).max().orElseThrow();
    }

    /** Local-DP epsilon of a party (exact: linear RDP). */
    public double ldpEpsilon(int party) {
        double rho = visits[party] * rhoPerVisit();
        return rho == 0 ? 0.0 : ZCdp.epsilon(rho, delta);
    }

    /** Local-DP epsilon of the run: the worst party's. */
    public double ldpEpsilon() {
        double rho = maxVisits() * rhoPerVisit();
        return rho == 0 ? 0.0 : ZCdp.epsilon(rho, delta);
    }

    /** The per-contribution network-DP curve on the default RDP orders (see {@link NetworkDpBound}). */
    public double[] networkCurve() {
        return NetworkDpBound.perContribution(RdpAccountant.defaultOrders(), visits.length, rhoPerVisit());
    }

    /** The per-visit LDP curve {@code alpha * 2 L_F^2 / sigma^2} on the same orders. */
    public double[] ldpCurve() {
        double[] orders = RdpAccountant.defaultOrders();
        double[] out = new double[orders.length];
        for (int i = 0; i < orders.length; i++) {
            out[i] = orders[i] * rhoPerVisit();
        }
        return out;
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
        s.append(String.format(Locale.ROOT, "  local DP (exact, the guarantee): epsilon = %.4f%n", ldpEpsilon()));
        try {
            s.append(String.format(Locale.ROOT, "  network DP (derived bound, NEEDS REVIEW, not a guarantee yet): epsilon = %.4f%n",
                    networkEpsilon(smoothness, stepSize).epsilon()));
        } catch (IllegalArgumentException e) {
            s.append("  network DP: not applicable (").append(e.getMessage()).append(")\n");
        }
        return s.toString();
    }
}
