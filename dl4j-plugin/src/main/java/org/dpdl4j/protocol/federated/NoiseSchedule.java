package org.dpdl4j.protocol.federated;

import java.util.Arrays;

/** The standard deviation {@code sigma_t} of the Gaussian noise of round t (t = 1, 2, ...). */
public sealed interface NoiseSchedule extends java.io.Serializable {

    /** sigma at round t (1-based). */
    double at(long t);

    /** The number of rounds the schedule covers ({@link Long#MAX_VALUE} for a constant). */
    long length();

    /** No noise (a non-private run). */
    static NoiseSchedule none() {
        return new Constant(0.0);
    }

    /** The same sigma every round. */
    static NoiseSchedule constant(double sigma) {
        return new Constant(sigma);
    }

    /** Whether every round adds noise. */
    default boolean isPrivate() {
        return at(1) > 0;
    }

    /** @param sigma the std of every round, &gt;= 0 */
    record Constant(double sigma) implements NoiseSchedule {
        public Constant {
            if (!(sigma >= 0) || Double.isInfinite(sigma)) {
                throw new IllegalArgumentException("noise std sigma must be a finite number >= 0, got " + sigma);
            }
        }

        @Override
        public double at(long t) {
            return sigma;
        }

        @Override
        public long length() {
            return Long.MAX_VALUE;
        }
    }

    /** @param sigmas sigma_1, sigma_2, ... (copied), each finite and &gt; 0 */
    record PerRound(double[] sigmas) implements NoiseSchedule {
        public PerRound {
            if (sigmas.length == 0) {
                throw new IllegalArgumentException("a per-round noise schedule needs at least one round");
            }
            sigmas = sigmas.clone();
            for (int i = 0; i < sigmas.length; i++) {
                if (!(sigmas[i] > 0) || Double.isInfinite(sigmas[i])) {
                    throw new IllegalArgumentException("sigma of round " + (i + 1) + " must be a positive finite number, got "
                            + sigmas[i] + " (a round without noise has no privacy guarantee)");
                }
            }
        }

        @Override
        public double at(long t) {
            if (t < 1 || t > sigmas.length) {
                throw new IllegalArgumentException("round " + t + " is outside the noise schedule's rounds 1.." + sigmas.length);
            }
            return sigmas[(int) (t - 1)];
        }

        @Override
        public long length() {
            return sigmas.length;
        }

        @Override
        public double[] sigmas() {
            return sigmas.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PerRound other && Arrays.equals(sigmas, other.sigmas);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(sigmas);
        }

        @Override
        public String toString() {
            return "PerRound" + Arrays.toString(sigmas);
        }
    }
}
