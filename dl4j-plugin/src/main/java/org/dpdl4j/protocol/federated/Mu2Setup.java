package org.dpdl4j.protocol.federated;

import java.util.Objects;

/**
 * Everything a DP-mu^2-FL run derives from its problem constants and its privacy target: the noise std
 * calibrated in closed form (spec 4.4), the step size of spec 4.5, and the run's configuration and accountant.
 *
 * @param config    the run's settings
 * @param constants G, L, D and whether the safety clip applies
 * @param sigma     noise std (0 without a privacy target)
 * @param privacy   the accountant (null without a privacy target)
 * @param machines  M
 * @param dimension d, the number of model parameters
 */
public record Mu2Setup(Mu2Config config, Mu2Constants constants, double sigma, Mu2Privacy privacy, int machines, long dimension) {
    public Mu2Setup {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(constants, "constants");
    }

    /**
     * A private run calibrated to (epsilon, delta) after all T rounds.
     *
     * @param trust     untrusted or trusted server
     * @param constants G, L, D
     * @param machines  M
     * @param rounds    T
     * @param batchSize examples per machine and round (1 in the paper)
     * @param dimension d
     * @param epsilon   target epsilon
     * @param delta     delta
     * @param seed      master seed
     */
    public static Mu2Setup calibrated(ServerTrust trust, Mu2Constants constants, int machines, long rounds, int batchSize,
                                      long dimension, double epsilon, double delta, long seed) {
        double sigma = Mu2Privacy.calibrate(trust, constants.sensitivityBound(), machines, rounds, epsilon, delta);
        return withNoise(trust, constants, machines, rounds, batchSize, dimension, sigma, delta, seed);
    }

    /** A private run with a given noise std. */
    public static Mu2Setup withNoise(ServerTrust trust, Mu2Constants constants, int machines, long rounds, int batchSize,
                                     long dimension, double sigma, double delta, long seed) {
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("noise std sigma must be a positive finite number, got " + sigma);
        }
        double eta = Mu2StepSize.of(constants, rounds, machines, dimension, sigma, trust);
        NoiseSchedule noise = NoiseSchedule.constant(sigma);
        Mu2Config config = Mu2Config.of(trust, rounds, batchSize, eta, constants, noise, seed);
        Mu2Privacy privacy = Mu2Privacy.of(trust, constants.sensitivityBound(), machines, noise, delta);
        return new Mu2Setup(config, constants, sigma, privacy, machines, dimension);
    }

    /** Non-private mu^2-SGD over M machines, with the step size of spec 4.5 at sigma = 0. */
    public static Mu2Setup nonPrivate(Mu2Constants constants, int machines, long rounds, int batchSize, long dimension, long seed) {
        double eta = Mu2StepSize.of(constants, rounds, machines, dimension, 0.0, ServerTrust.TRUSTED);
        Mu2Config config = Mu2Config.of(ServerTrust.TRUSTED, rounds, batchSize, eta, constants, NoiseSchedule.none(), seed);
        return new Mu2Setup(config, constants, 0.0, null, machines, dimension);
    }

    /** The step size eta. */
    public double stepSize() {
        return config.stepSize();
    }
}
