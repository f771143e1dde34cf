package org.dpdl4j.privacy.accounting.correlated;

import org.dpdl4j.privacy.accounting.ZCdp;

/**
 * Per-step budget and baseline noise levels for a total (epsilon, delta) over T steps (Decor
 * section 3.5): {@code rho = rho(epsilon, delta)} of the linear-RDP conversion, per-step target
 * {@code rhoPerStep = rho / T}; LDP noise {@code sigmaLdp = Delta / sqrt(2 rhoPerStep)} (each user is a
 * Gaussian mechanism of sensitivity Delta; {@code C sqrt(2/rhoPerStep)} for Decor's {@code Delta = 2C});
 * CDP noise {@code sigmaCdpCentral = sigmaLdp / sqrt(n)} (the average of n messages).
 *
 * @param epsilon total target epsilon
 * @param delta target delta
 * @param steps number of steps T
 * @param sensitivity L2 sensitivity Delta of one user's contribution per step
 * @param nodes number of users n
 * @param rhoPerStep per-step linear-RDP slope target ({@code eps_bar} of the Decor code)
 * @param sigmaLdp local-DP noise level
 * @param sigmaCdpCentral central-DP noise level per user
 */
public record DecorBaselines(double epsilon, double delta, long steps, double sensitivity, int nodes, double rhoPerStep,
        double sigmaLdp, double sigmaCdpCentral) {

    /** Computes the baselines. */
    public static DecorBaselines of(double epsilon, double delta, long steps, double sensitivity, int nodes) {
        if (steps < 1) {
            throw new IllegalArgumentException("number of steps T = " + steps + " must be at least 1");
        }
        if (!(sensitivity > 0) || Double.isInfinite(sensitivity)) {
            throw new IllegalArgumentException("L2 sensitivity = " + sensitivity + " must be positive and finite");
        }
        if (nodes < 1) {
            throw new IllegalArgumentException("number of users n = " + nodes + " must be at least 1");
        }
        double rhoPerStep = ZCdp.rho(epsilon, delta) / steps;
        double sigmaLdp = sensitivity / Math.sqrt(2.0 * rhoPerStep);
        return new DecorBaselines(epsilon, delta, steps, sensitivity, nodes, rhoPerStep, sigmaLdp, sigmaLdp / Math.sqrt(nodes));
    }
}
