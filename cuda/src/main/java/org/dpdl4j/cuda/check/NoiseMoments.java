package org.dpdl4j.cuda.check;

/**
 * Whether draws meant to be N(0, 1) look like it: what tells noise two backends drew alike from equal zeros, or from noise
 * far off its scale. It is a coarse check (5 standard errors: with 100,000 draws a std 1% off passes); an exact scale is
 * what the comparison with the reference's draws checks.
 */
public final class NoiseMoments {
    private NoiseMoments() {
    }

    /**
     * 0 when the draws' mean and variance are within 5 standard errors of 0 and 1, else the larger of the two z-scores.
     */
    public static double excess(float[] draws) {
        int n = draws.length;
        double mean = 0;
        for (float v : draws) {
            mean += v;
        }
        mean /= n;
        double var = 0;
        for (float v : draws) {
            var += (v - mean) * (v - mean);
        }
        var /= n - 1;
        double z = Math.max(Math.abs(mean) * Math.sqrt(n), Math.abs(var - 1) / Math.sqrt(2.0 / n));
        return z <= 5 ? 0 : z;
    }
}
