package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.ndarray.INDArray;

/** Argument checks shared by the noise sources. */
final class NoiseChecks {
    private NoiseChecks() {
    }

    /** Validates {@code std}; returns true when there is nothing to add (std = 0 or an empty target). */
    static boolean skip(INDArray target, double std) {
        if (!(std >= 0) || Double.isInfinite(std)) {
            throw new IllegalArgumentException("noise standard deviation must be a finite number >= 0, got " + std);
        }
        if (!target.dataType().isFPType()) {
            throw new IllegalArgumentException("Gaussian noise needs a floating-point array, got " + target.dataType());
        }
        return std == 0.0 || target.isEmpty();
    }
}
