package org.dpdl4j.privacy.accounting.correlated;

/**
 * Per-coordinate noise levels of pairwise-correlated Gaussian noise: each user adds private noise
 * of standard deviation {@code sigmaCdp}, and each edge adds {@code +-u_e} with
 * {@code u_e ~ N(0, sigmaCor^2)} at its two ends. For honest set H the noise covariance is
 * {@code sigmaCdp^2 I + sigmaCor^2 L_{G[H]}}. (GOPA: {@code sigmaCdp = sigma_eta}, {@code sigmaCor = sigma_Delta}.)
 *
 * @param sigmaCdp private (independent) noise std, positive
 * @param sigmaCor pairwise (cancelling) noise std, non-negative
 */
public record CorrelatedNoise(double sigmaCdp, double sigmaCor) {
    /** Validates both levels. */
    public CorrelatedNoise {
        if (!(sigmaCdp > 0) || Double.isInfinite(sigmaCdp)) {
            throw new IllegalArgumentException("sigma_cdp = " + sigmaCdp + " must be a positive finite number: "
                    + "without private noise the honest-user covariance is singular and no guarantee holds");
        }
        if (!(sigmaCor >= 0) || Double.isInfinite(sigmaCor)) {
            throw new IllegalArgumentException("sigma_cor = " + sigmaCor + " must be a non-negative finite number");
        }
    }
}
