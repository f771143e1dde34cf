package org.dpdl4j.protocol.federated;

import java.util.Objects;

/**
 * The settings of a (DP-)mu^2-FL run besides the model, the data and the noise streams.
 *
 * @param trust     who adds the noise (irrelevant without noise)
 * @param rounds    T; machine i uses its examples {@code (t-1) b .. t b - 1} in round t, so each is used once
 * @param batchSize b, examples per machine per round (1 in the paper); the increment is the batch mean, whose
 *                  sensitivity to one example is at most that of a single-example increment, so the accounting
 *                  stays valid (it is conservative for b &gt; 1)
 * @param stepSize  eta (see {@link Mu2StepSize})
 * @param domain    the ball K the iterates are projected onto
 * @param qClip     the clip S of each increment q; {@link Double#POSITIVE_INFINITY} (no clip) only without noise
 * @param noise     sigma_t of the Gaussian noise ({@link NoiseSchedule#none()} for plain mu^2-SGD)
 * @param seed      master seed of the seeded streams (for the checkpoint's identity check)
 */
public record Mu2Config(ServerTrust trust, long rounds, int batchSize, double stepSize, ParameterBall domain, double qClip,
                        NoiseSchedule noise, long seed) implements java.io.Serializable {
    public Mu2Config {
        Objects.requireNonNull(trust, "trust");
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(noise, "noise");
        if (rounds < 1) {
            throw new IllegalArgumentException("the number of rounds T must be >= 1, got " + rounds);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("the batch size per machine and round must be >= 1, got " + batchSize);
        }
        if (!(stepSize > 0) || Double.isInfinite(stepSize)) {
            throw new IllegalArgumentException("step size eta must be a positive finite number, got " + stepSize);
        }
        if (!(qClip > 0)) {
            throw new IllegalArgumentException("the clip S of the increments must be > 0 (or +Infinity for none), got " + qClip);
        }
        if (noise.length() < rounds) {
            throw new IllegalArgumentException("the noise schedule covers " + noise.length() + " rounds but the run has " + rounds);
        }
        if (noise.isPrivate() && Double.isInfinite(qClip)) {
            throw new IllegalArgumentException("a private run clips every increment q to the bound S its accounting assumes:"
                    + " give a finite clip (Mu2Config.of takes S = G + 2LD from the constants)");
        }
    }

    /** A run whose domain and clip come from the problem constants. */
    public static Mu2Config of(ServerTrust trust, long rounds, int batchSize, double stepSize, Mu2Constants constants,
                               NoiseSchedule noise, long seed) {
        return new Mu2Config(trust, rounds, batchSize, stepSize, constants.domain(), constants.qClip(), noise, seed);
    }

    /** The algorithm's name: {@code mu2-sgd} without noise, else {@code mu2-untrusted} or {@code mu2-trusted}. */
    public String algorithmName() {
        if (!noise.isPrivate()) {
            return "mu2-sgd";
        }
        return trust == ServerTrust.UNTRUSTED ? "mu2-untrusted" : "mu2-trusted";
    }
}
