package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.privacy.noise.NoiseKind;

/**
 * What a reproduction says about its noise, on the terminal and in its summary: reproductions draw seeded noise so that
 * their committed results can be rerun to the same numbers, and seeded noise protects nothing.
 */
final class NoiseNotice {
    private NoiseNotice() {
    }

    /**
     * One paragraph.
     *
     * @param secureOption how to ask this reproduction for secure noise, or null when it has no such option
     */
    static String of(NoiseKind kind, String secureOption) {
        if (kind == NoiseKind.SECURE) {
            return "Noise: secure (AES-256-CTR keyed from SecureRandom), as in real training; the numbers differ from run"
                    + " to run.";
        }
        return "Noise: " + (kind == NoiseKind.PHILOX ? "seeded by Philox counters" : "seeded") + ", so that every run can be rerun to the same numbers and the committed results checked run"
                + " for run. Seeded noise is NOT secure (anyone who knows the seed can remove it): these runs measure utility"
                + " at the calibrated noise level and protect nothing. Real training keeps dpdl4j's default, secure noise"
                + " (train and the library" + (secureOption == null ? "" : "; " + secureOption + " here") + ").";
    }
}
