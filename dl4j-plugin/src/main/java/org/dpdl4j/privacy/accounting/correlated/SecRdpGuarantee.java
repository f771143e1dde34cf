package org.dpdl4j.privacy.accounting.correlated;

import org.dpdl4j.privacy.accounting.ZCdp;

/**
 * User-level guarantee of T steps of a correlated-Gaussian protocol: each step is
 * {@code (alpha, alpha rhoPerStep)}-SecRDP with {@code rhoPerStep = (Delta^2/2) kappa}, composition gives
 * {@code rho = T rhoPerStep} (a linear RDP curve, i.e. rho-zCDP), and the standard conversion gives
 * {@code epsilon = rho + 2 sqrt(rho ln(1/delta))}. For Decor ({@code Delta = 2C}): {@code rho = 2 T C^2 kappa}.
 *
 * @param kappa the kappa it rests on (exact or an upper bound; the guarantee is valid either way)
 * @param sensitivity L2 sensitivity Delta of one user's per-step contribution
 * @param steps number of steps T
 * @param delta delta of the (epsilon, delta) statement
 * @param rhoPerStep per-step RDP slope
 * @param rho total zCDP parameter
 * @param epsilon total epsilon at delta
 */
public record SecRdpGuarantee(KappaResult kappa, double sensitivity, long steps, double delta, double rhoPerStep, double rho,
        double epsilon) {

    /** Composes and converts. */
    public static SecRdpGuarantee of(KappaResult kappa, double sensitivity, long steps, double delta) {
        if (steps < 1) {
            throw new IllegalArgumentException("number of steps T = " + steps + " must be at least 1");
        }
        double perStep = kappa.rhoPerStep(sensitivity);
        double rho = steps * perStep;
        return new SecRdpGuarantee(kappa, sensitivity, steps, delta, perStep, rho, ZCdp.epsilon(rho, delta));
    }

    /** Total RDP at order alpha: {@code alpha * rho}. */
    public double rdp(double alpha) {
        if (!(alpha > 1) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("RDP order alpha = " + alpha + " must be a finite number above 1");
        }
        return alpha * rho;
    }
}
