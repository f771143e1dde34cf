package org.dpdl4j.privacy.accounting.pld;

/**
 * The Laplace mechanism with scale 1 where one protected unit moves the output by {@code epsilon0} (its pure-DP
 * epsilon): P = Laplace(epsilon0, 1), Q = Laplace(0, 1), loss {@code |x| - |x - epsilon0|}, which is {@code -epsilon0}
 * left of 0, {@code +epsilon0} right of epsilon0 and linear between. The pair is symmetric, so one direction serves
 * both neighbouring relations. Its exact curve is {@code delta(eps) = 1 - e^{(eps - epsilon0)/2}} on
 * {@code [-epsilon0, epsilon0]} and 0 above.
 *
 * @param epsilon0 the sensitivity over the Laplace scale, positive and finite
 */
public record LaplaceLossPair(double epsilon0) implements PrivacyLossPair {

    public LaplaceLossPair {
        if (!(epsilon0 > 0) || Double.isInfinite(epsilon0)) {
            throw new IllegalArgumentException("epsilon0 (sensitivity over Laplace scale) must be positive and finite, got "
                    + epsilon0);
        }
    }

    @Override
    public double loss(double x) {
        return Math.abs(x) - Math.abs(x - epsilon0);
    }

    @Override
    public double boundary(double level) {
        if (level < -epsilon0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (level >= epsilon0) {
            return Double.POSITIVE_INFINITY;
        }
        return (level + epsilon0) / 2;
    }

    @Override
    public double pMass(double a, double b) {
        return laplaceMass(a - epsilon0, b - epsilon0);
    }

    @Override
    public double qMass(double a, double b) {
        return laplaceMass(a, b);
    }

    @Override
    public double lowestLoss(double tail) {
        return -epsilon0;
    }

    @Override
    public double highestLoss(double tail) {
        return epsilon0;
    }

    @Override
    public double lossScale() {
        return epsilon0;
    }

    /** The mass of (a, b] under Laplace(0, 1), from the tail that keeps it accurate. */
    private static double laplaceMass(double a, double b) {
        if (!(a <= b)) {
            throw new IllegalArgumentException("an interval needs a <= b, got (" + a + ", " + b + "]");
        }
        if (a >= 0) {
            return 0.5 * (Math.exp(-a) - Math.exp(-b));
        }
        if (b <= 0) {
            return 0.5 * (Math.exp(b) - Math.exp(a));
        }
        return 1 - 0.5 * Math.exp(a) - 0.5 * Math.exp(-b);
    }
}
