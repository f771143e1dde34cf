package org.dpdl4j.privacy.accounting.pld;

import org.dpdl4j.privacy.accounting.StandardNormal;

/**
 * The dominating pair of a Gaussian mechanism run on a Poisson sample of rate q (Zhu, Dong &amp; Wang 2022, Prop. 30;
 * q = 1 is the plain Gaussian mechanism), in units of the noise standard deviation, where one protected unit moves the
 * output by {@code mu}. Under add/remove adjacency the two directions differ and both are needed:
 * <ul>
 *   <li>{@link Direction#REMOVE}: P = (1-q) N(0,1) + q N(mu,1), Q = N(0,1), loss {@code ln(1 - q + q e^{mu x - mu^2/2})},
 *   bounded below by {@code ln(1-q)};</li>
 *   <li>{@link Direction#ADD}: P = N(0,1), Q = (1-q) N(0,1) + q N(-mu,1) (x mirrored so that the loss increases),
 *   loss {@code -ln(1 - q + q e^{-mu x - mu^2/2})}, bounded above by {@code -ln(1-q)}.</li>
 * </ul>
 * For q = 1 both are the Gaussian pair N(mu,1) against N(0,1) (in the ADD case mirrored and shifted), whose loss is
 * {@code N(mu^2/2, mu^2)} under P.
 *
 * @param samplingRate q in (0, 1]
 * @param mu           sensitivity over noise standard deviation, positive and finite
 * @param direction    which neighbour holds the unit
 */
public record SampledGaussianLossPair(double samplingRate, double mu, Direction direction) implements PrivacyLossPair {

    /** Which of the two neighbouring datasets is the larger one (P is the output distribution on the first). */
    public enum Direction {
        /** P holds the unit: the output on the dataset with the unit against the one without it. */
        REMOVE,
        /** Q holds the unit. */
        ADD
    }

    private static final double LARGE_EXPONENT = 30.0;

    public SampledGaussianLossPair {
        if (!(samplingRate > 0 && samplingRate <= 1)) {
            throw new IllegalArgumentException("sampling rate must lie in (0, 1], got " + samplingRate);
        }
        if (!(mu > 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("mu must be a positive finite number, got " + mu);
        }
    }

    /** The Gaussian mechanism without sampling (the same pair in both directions). */
    public static SampledGaussianLossPair gaussian(double mu) {
        return new SampledGaussianLossPair(1.0, mu, Direction.REMOVE);
    }

    @Override
    public double loss(double x) {
        return direction == Direction.REMOVE ? logMixture(mu * x - mu * mu / 2) : -logMixture(-mu * x - mu * mu / 2);
    }

    @Override
    public double boundary(double level) {
        if (direction == Direction.REMOVE) {
            // ln(1 - q + q e^a) <= level  <=>  a <= a*(level)
            if (samplingRate < 1 && level <= Math.log1p(-samplingRate)) {
                return Double.NEGATIVE_INFINITY;
            }
            return (inverseLogMixture(level) + mu * mu / 2) / mu;
        }
        // -ln(1 - q + q e^b) <= level  <=>  b >= a*(-level), with b = -mu x - mu^2/2
        if (samplingRate < 1 && -level <= Math.log1p(-samplingRate)) {
            return Double.POSITIVE_INFINITY;
        }
        return -(inverseLogMixture(-level) + mu * mu / 2) / mu;
    }

    @Override
    public double pMass(double a, double b) {
        if (direction == Direction.ADD) {
            return StandardNormal.mass(a, b);
        }
        return mixtureMass(a, b, mu);
    }

    @Override
    public double qMass(double a, double b) {
        if (direction == Direction.REMOVE) {
            return StandardNormal.mass(a, b);
        }
        return mixtureMass(a, b, -mu);
    }

    @Override
    public double lowestLoss(double tail) {
        if (direction == Direction.REMOVE) {
            return samplingRate < 1 ? Math.log1p(-samplingRate) : loss(mu - NormalQuantile.upperTail(tail));
        }
        return loss(-NormalQuantile.upperTail(tail));
    }

    @Override
    public double highestLoss(double tail) {
        if (direction == Direction.REMOVE) {
            // P's upper tail beyond s is at most that of N(mu, 1) beyond s
            return loss(mu + NormalQuantile.upperTail(tail));
        }
        return samplingRate < 1 ? -Math.log1p(-samplingRate) : loss(NormalQuantile.upperTail(tail));
    }

    /** {@code min(mu, q sqrt(e^{mu^2} - 1))}: the loss's standard deviation for q = 1, its small-q order otherwise. */
    @Override
    public double lossScale() {
        return Math.min(mu, samplingRate * Math.sqrt(Math.expm1(mu * mu)));
    }

    /** {@code (1-q) N(0,1)((a, b]) + q N(shift,1)((a, b])}. */
    private double mixtureMass(double a, double b, double shift) {
        double shifted = StandardNormal.mass(a - shift, b - shift);
        return samplingRate == 1 ? shifted : (1 - samplingRate) * StandardNormal.mass(a, b) + samplingRate * shifted;
    }

    /** {@code ln(1 - q + q e^a)} without overflow or cancellation. */
    private double logMixture(double a) {
        if (samplingRate == 1) {
            return a;
        }
        if (a > LARGE_EXPONENT) {
            return Math.log(samplingRate) + a + Math.log1p((1 - samplingRate) / samplingRate * Math.exp(-a));
        }
        return Math.log1p(samplingRate * Math.expm1(a));
    }

    /** The a with {@code ln(1 - q + q e^a) = level}, for {@code level > ln(1-q)}. */
    private double inverseLogMixture(double level) {
        if (samplingRate == 1) {
            return level;
        }
        if (level > LARGE_EXPONENT) {
            return level + Math.log1p(-(1 - samplingRate) * Math.exp(-level)) - Math.log(samplingRate);
        }
        return Math.log(Math.expm1(level) + samplingRate) - Math.log(samplingRate);
    }
}
