package org.dpdl4j.protocol.randomwalk;

/**
 * The settings of network-DP random-walk SGD (Cyffers and Bellet 2022; spec 7.4).
 *
 * @param steps         T token hops
 * @param stepSize      gamma, constant (the network-DP bound assumes it)
 * @param gradientBound L_F: each party's local gradient is clipped to this norm (the Lipschitz bound of the
 *                      analysis); {@code +Infinity} for none (non-private runs only)
 * @param sigma         std of the Gaussian noise added to every gradient
 * @param batchSize     examples of a local gradient, uniform without replacement; 0 = the party's full dataset
 * @param seed          master seed of the seeded streams
 */
public record RandomWalkConfig(long steps, double stepSize, double gradientBound, double sigma, int batchSize, long seed) {
    public RandomWalkConfig {
        if (steps < 1 || steps > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the number of steps T must lie in [1, 2^31 - 1], got " + steps);
        }
        if (!(stepSize > 0) || Double.isInfinite(stepSize)) {
            throw new IllegalArgumentException("step size gamma must be a positive finite number, got " + stepSize);
        }
        if (!(gradientBound > 0)) {
            throw new IllegalArgumentException("the gradient bound L_F must be > 0 (or +Infinity for no clipping), got " + gradientBound);
        }
        if (!(sigma >= 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("noise std sigma must be a finite number >= 0, got " + sigma);
        }
        if (sigma > 0 && Double.isInfinite(gradientBound)) {
            throw new IllegalArgumentException("a private random walk needs a finite gradient bound L_F (the clip of every local gradient)");
        }
        if (batchSize < 0) {
            throw new IllegalArgumentException("batch size must be >= 1, or 0 for the full local dataset, got " + batchSize);
        }
    }
}
