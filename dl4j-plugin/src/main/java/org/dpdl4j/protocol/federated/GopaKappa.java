package org.dpdl4j.protocol.federated;

import java.util.List;

/**
 * {@code kappa = max_i (Sigma_H^-1)_ii} of GOPA's release for the honest parties H, with what it rests on. One
 * release of values whose L2 sensitivity is Delta is then {@code (alpha, alpha Delta^2 kappa / 2)}-RDP.
 *
 * @param kappa         the value
 * @param basis         exact worst case, upper bound, or maximum over sampled colluding sets
 * @param colluders     q, the colluding parties
 * @param worstSet      the colluding set attaining it (empty for an upper bound or q = 0)
 * @param setsEvaluated how many colluding sets were evaluated (1 for q = 0)
 */
public record GopaKappa(double kappa, Basis basis, int colluders, List<Integer> worstSet, long setsEvaluated) {

    /** What the number rests on. */
    public enum Basis {
        /** The exact maximum over every colluding set of the given size. */
        EXACT_WORST_CASE,
        /** A proven upper bound on the worst case (Theorem 1 with vertex deletion). */
        UPPER_BOUND,
        /** The maximum over randomly drawn colluding sets: an estimate, not a worst-case guarantee. */
        SAMPLED_SETS
    }

    public GopaKappa {
        worstSet = List.copyOf(worstSet);
    }

    /** Whether the value is a worst-case guarantee. */
    public boolean isGuarantee() {
        return basis != Basis.SAMPLED_SETS;
    }

    /** Per-release RDP at order alpha for values of L2 sensitivity Delta. */
    public double rdp(double alpha, double sensitivity) {
        return alpha * sensitivity * sensitivity * kappa / 2;
    }
}
