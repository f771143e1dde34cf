package org.dpdl4j.privacy.accounting;

import java.util.Objects;

/**
 * What a privacy statement describes, beside the numbers the accountant provides.
 *
 * @param mechanism a short name, e.g. "DP-SGD (Poisson-subsampled Gaussian)"
 * @param protectedUnit the unit one neighbouring change affects
 * @param samplingScheme how each step samples its batch
 * @param samplingRate q in (0, 1]; 1 for {@link SamplingScheme#FULL_BATCH}
 * @param noiseMultiplier z &gt;= 0 (noise std over the clipping norm)
 * @param steps the number of steps, &gt;= 0
 */
public record MechanismDescription(String mechanism, ProtectedUnit protectedUnit, SamplingScheme samplingScheme,
                                   double samplingRate, double noiseMultiplier, long steps) {
    public MechanismDescription {
        Objects.requireNonNull(mechanism, "mechanism name must not be null");
        Objects.requireNonNull(protectedUnit, "protected unit must not be null");
        Objects.requireNonNull(samplingScheme, "sampling scheme must not be null");
        if (!(samplingRate > 0 && samplingRate <= 1)) {
            throw new IllegalArgumentException("samplingRate must lie in (0, 1], got " + samplingRate);
        }
        if (samplingScheme == SamplingScheme.FULL_BATCH && samplingRate != 1.0) {
            throw new IllegalArgumentException("a FULL_BATCH scheme has samplingRate 1, got " + samplingRate);
        }
        if (!(noiseMultiplier >= 0)) {
            throw new IllegalArgumentException("noiseMultiplier must be >= 0, got " + noiseMultiplier);
        }
        if (steps < 0) {
            throw new IllegalArgumentException("steps must be >= 0, got " + steps);
        }
    }

    /** Passes over the data: {@code steps * samplingRate}. */
    public double epochs() {
        return steps * samplingRate;
    }
}
