package org.dpdl4j.privacy.accounting.pld;

/**
 * A pair of one-dimensional output distributions (P for the dataset with the protected unit in the worse role, Q for
 * its neighbour) that dominates one release: every (epsilon, delta) the pair satisfies, the release satisfies. The
 * privacy loss {@code L(x) = ln(dP/dQ)(x)} is non-decreasing in x (orient x so), which makes the set where the loss
 * exceeds any level a half-line and every quantity below a difference of distribution functions.
 */
public interface PrivacyLossPair {

    /** The privacy loss at x. */
    double loss(double x);

    /**
     * {@code sup {x : L(x) <= level}}: the loss exceeds {@code level} exactly right of it ({@code -inf} when it exceeds
     * the level everywhere, {@code +inf} when nowhere).
     */
    double boundary(double level);

    /** {@code P((a, b])}, accurate in the tails (a or b may be infinite). */
    double pMass(double a, double b);

    /** {@code Q((a, b])}, accurate in the tails. */
    double qMass(double a, double b);

    /**
     * The smallest loss to discretise: the loss's infimum where it is bounded below, else the loss at the point left of
     * which P has mass at most {@code tail} (that mass is moved up to the first grid point, which only overstates).
     */
    double lowestLoss(double tail);

    /**
     * The largest loss to discretise: the loss's supremum where it is bounded above, else the loss at the point right
     * of which P has mass at most {@code tail} (that mass is counted as infinite loss, i.e. added to every delta).
     */
    double highestLoss(double tail);

    /**
     * A scale of the loss under P (its standard deviation, or an estimate of the same order) from which the
     * discretisation interval is chosen: the interval must be small against it for the bound to be tight.
     */
    double lossScale();
}
