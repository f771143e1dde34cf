package org.dpdl4j.protocol.muffliato;

import java.util.Objects;

/**
 * The settings of Muffliato-GD (Cyffers et al. 2022): every round each node takes a local gradient step with its
 * gradient clipped to L and {@code N(0, sigma^2 I)} added, then T gossip steps average the nodes' models.
 *
 * @param rounds      K, the rounds
 * @param gossipSteps T, gossip steps per round
 * @param scheme      plain or Chebyshev gossip
 * @param stepSize    gamma, constant
 * @param clip        L: each node's local gradient is clipped to this norm (so one node's data moves it by 2L)
 * @param sigma       std of each node's gradient noise; 0 for the non-private reference
 * @param seed        master seed of the seeded streams
 */
public record MuffliatoConfig(long rounds, int gossipSteps, GossipScheme scheme, double stepSize, double clip, double sigma,
                              long seed) {
    public MuffliatoConfig {
        Objects.requireNonNull(scheme, "gossip scheme");
        if (rounds < 1 || rounds > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the number of rounds K must lie in [1, 2^31 - 1], got " + rounds);
        }
        if (gossipSteps < 1) {
            throw new IllegalArgumentException("Muffliato needs at least one gossip step per round, got " + gossipSteps);
        }
        if (!(stepSize > 0) || Double.isInfinite(stepSize)) {
            throw new IllegalArgumentException("step size gamma must be a positive finite number, got " + stepSize);
        }
        if (!(clip > 0) || Double.isInfinite(clip)) {
            throw new IllegalArgumentException("the gradient clip L must be a positive finite number, got " + clip);
        }
        if (!(sigma >= 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("noise std sigma must be a finite number >= 0, got " + sigma);
        }
    }

    /** {@code sigma / (2L)}: the noise multiplier against one node's sensitivity 2L. */
    public double noiseOverSensitivity() {
        return sigma / (2.0 * clip);
    }
}
