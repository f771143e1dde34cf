package org.dpdl4j.privacy.accounting.correlated;

/**
 * A noise pair meeting a calibration target, with what it achieves.
 *
 * @param noise the pair
 * @param guarantee its kappa and (epsilon, delta) guarantee; {@code guarantee.epsilon()} is at or
 *     below the target
 */
public record CalibratedPair(CorrelatedNoise noise, SecRdpGuarantee guarantee) {

    /** Private noise level. */
    public double sigmaCdp() {
        return noise.sigmaCdp();
    }

    /** Pairwise noise level. */
    public double sigmaCor() {
        return noise.sigmaCor();
    }

    /** Achieved total epsilon. */
    public double epsilon() {
        return guarantee.epsilon();
    }
}
