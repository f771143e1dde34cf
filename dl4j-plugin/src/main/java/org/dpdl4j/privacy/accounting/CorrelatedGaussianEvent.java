package org.dpdl4j.privacy.accounting;

/**
 * One step of a correlated-noise Gaussian mechanism (Decor, GOPA): the released vector is the stack
 * of the users' contributions plus Gaussian noise of covariance {@code Sigma} per coordinate, each
 * user's contribution bounded in L2 norm by {@code contributionNorm}, and
 * {@code kappa = max_i (Sigma^-1)_ii} over the users whose data is protected.
 *
 * <p>Whitening by {@code Sigma^{-1/2}} turns a change of user i's contribution by a vector of norm
 * {@code s} into a mean shift of squared norm at most {@code s^2 kappa}, so the mechanism is exactly a
 * Gaussian mechanism with noise multiplier {@code z = 1 / (contributionNorm * sqrt(kappa))}:
 * {@link NeighbouringRelation#REPLACE_ONE} then gives RDP {@code 2 alpha C^2 kappa} per step (Decor's
 * SecRDP), and {@link NeighbouringRelation#ADD_OR_REMOVE_ONE} with Poisson sampling gives the
 * example-level sampled Gaussian. Accountants reduce it with {@link #toGaussian()}.
 *
 * @param kappa {@code max_i (Sigma^-1)_ii >= 0}
 * @param contributionNorm the L2 bound C on one user's (or one example's) contribution, {@code >= 0}
 */
public record CorrelatedGaussianEvent(double kappa, double contributionNorm) implements DpEvent {
    public CorrelatedGaussianEvent {
        if (!(kappa >= 0)) {
            throw new IllegalArgumentException("CorrelatedGaussianEvent: kappa = max_i (Sigma^-1)_ii must be >= 0, got "
                    + kappa);
        }
        if (!(contributionNorm >= 0) || Double.isInfinite(contributionNorm)) {
            throw new IllegalArgumentException("CorrelatedGaussianEvent: contributionNorm must be a finite number >= 0,"
                    + " got " + contributionNorm);
        }
    }

    /** The equivalent isotropic Gaussian event, noise multiplier {@code 1 / (C sqrt(kappa))}. */
    public GaussianEvent toGaussian() {
        if (contributionNorm == 0.0 || kappa == 0.0) {
            return new GaussianEvent(Double.POSITIVE_INFINITY); // nothing moves, or infinite noise
        }
        return new GaussianEvent(1.0 / (contributionNorm * Math.sqrt(kappa)));
    }
}
