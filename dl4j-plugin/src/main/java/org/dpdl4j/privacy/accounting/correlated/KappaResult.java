package org.dpdl4j.privacy.accounting.correlated;

import java.util.List;
import java.util.OptionalInt;

/**
 * The privacy-relevant constant of one step of a correlated-Gaussian protocol:
 * {@code kappa = max_H max_{i in H} ((sigmaCdp^2 I + sigmaCor^2 L_{G[H]})^-1)_ii} over the honest sets H
 * the adversary can leave. One step is then {@code (alpha, alpha * (Delta^2/2) * kappa)}-SecRDP for every
 * order alpha, with L2 sensitivity Delta ({@code 2C} for Decor's replace-one user-level steps, 1 for GOPA).
 *
 * @param kappa the value (exact or an upper bound)
 * @param worstVertex the honest vertex attaining it (original id); empty for an upper bound
 * @param worstDeletedSet the colluding (deleted) vertices of the worst honest set, sorted; empty for
 *     the eavesdropper and for an upper bound
 * @param exactness exact or upper bound
 * @param adversary the adversary it was computed for
 * @param noise the noise levels it was computed for
 */
public record KappaResult(double kappa, OptionalInt worstVertex, List<Integer> worstDeletedSet, KappaExactness exactness,
        Adversary adversary, CorrelatedNoise noise) {

    /** Validates and copies. */
    public KappaResult {
        if (!(kappa > 0) || Double.isInfinite(kappa)) {
            throw new IllegalArgumentException("kappa = " + kappa + " must be positive and finite");
        }
        worstDeletedSet = List.copyOf(worstDeletedSet);
    }

    /** Whether the value is exact. */
    public boolean isExact() {
        return exactness == KappaExactness.EXACT;
    }

    /**
     * Slope of the per-step linear RDP curve, i.e. the per-step zCDP parameter
     * {@code rho_step = (Delta^2 / 2) * kappa}; {@code 2 C^2 kappa} for Decor with {@code Delta = 2C}.
     */
    public double rhoPerStep(double sensitivity) {
        if (!(sensitivity > 0) || Double.isInfinite(sensitivity)) {
            throw new IllegalArgumentException("L2 sensitivity = " + sensitivity + " must be positive and finite");
        }
        return 0.5 * sensitivity * sensitivity * kappa;
    }

    /** Per-step RDP {@code eps_step(alpha) = alpha * (Delta^2 / 2) * kappa}. */
    public double rdpPerStep(double alpha, double sensitivity) {
        if (!(alpha > 1) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("RDP order alpha = " + alpha + " must be a finite number above 1");
        }
        return alpha * rhoPerStep(sensitivity);
    }
}
