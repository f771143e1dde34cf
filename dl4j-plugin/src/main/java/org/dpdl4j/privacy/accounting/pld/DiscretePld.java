package org.dpdl4j.privacy.accounting.pld;

import java.util.Arrays;

/**
 * A privacy loss distribution on a grid: mass {@code mass[j]} at loss {@code (offset + j) * interval}, plus mass at
 * {@code +inf}. It stands for a pair (P, Q) and prices it through the hockey-stick divergence
 * <pre>  delta(eps) = massAtInfinity + sum over L_j &gt; eps of mass[j] (1 - e^{eps - L_j}),</pre>
 * exactly for the distribution it holds. Every distribution this package builds dominates the release it describes
 * (see {@link ConnectTheDots} and {@link PldComposition}), so both queries are upper bounds on the true values.
 * Immutable; the arrays are never exposed.
 */
public final class DiscretePld {
    private final double interval;
    private final long offset;
    private final double[] mass;
    private final double massAtInfinity;
    /** {@code ln M(+-LADDER[j])} (see {@link #logMgfOnLadder}), computed when first needed. */
    private double[][] ladder;

    /** Loss differences beyond which {@code e^{-difference}} is too close to underflow for the closed-form search. */
    private static final double EXPONENT_RANGE = 600.0;

    /** Moment-generating parameters (per unit of loss) at which compositions bound their tails: 2^(j/2), |j| &lt;= 80. */
    static final double[] LADDER = java.util.stream.IntStream.rangeClosed(-80, 80).mapToDouble(j -> Math.pow(2, j / 2.0)).toArray();

    /**
     * @param interval       the grid step, positive
     * @param offset         the grid index of {@code mass[0]}
     * @param mass           non-negative masses (copied)
     * @param massAtInfinity mass at infinite loss, in [0, 1]
     */
    public DiscretePld(double interval, long offset, double[] mass, double massAtInfinity) {
        if (!(interval > 0) || Double.isInfinite(interval)) {
            throw new IllegalArgumentException("grid interval must be positive and finite, got " + interval);
        }
        if (!(massAtInfinity >= 0 && massAtInfinity <= 1)) {
            throw new IllegalArgumentException("mass at infinity must lie in [0, 1], got " + massAtInfinity);
        }
        for (int j = 0; j < mass.length; j++) {
            if (!(mass[j] >= 0)) {
                throw new IllegalArgumentException("mass at grid point " + j + " must be >= 0, got " + mass[j]);
            }
        }
        this.interval = interval;
        this.offset = offset;
        this.mass = mass.clone();
        this.massAtInfinity = massAtInfinity;
    }

    /** A distribution with all its mass at infinite loss: a release without a guarantee. */
    public static DiscretePld nonPrivate(double interval) {
        return new DiscretePld(interval, 0, new double[0], 1.0);
    }

    public double interval() {
        return interval;
    }

    /** The grid index of the first mass. */
    public long offset() {
        return offset;
    }

    /** The number of grid points held. */
    public int size() {
        return mass.length;
    }

    /** The mass at grid point {@code offset + j}. */
    public double mass(int j) {
        return mass[j];
    }

    public double massAtInfinity() {
        return massAtInfinity;
    }

    /** The finite masses, summed (at most {@code 1 - massAtInfinity}, up to rounding). */
    public double finiteMass() {
        double s = 0;
        for (double m : mass) {
            s += m;
        }
        return s;
    }

    /** The loss at grid point {@code offset + j}. */
    public double loss(int j) {
        return (offset + j) * interval;
    }

    /** The smallest delta for which the pair is (epsilon, delta)-DP, capped at 1. */
    public double delta(double epsilon) {
        if (Double.isNaN(epsilon)) {
            throw new IllegalArgumentException("epsilon is NaN");
        }
        double d = massAtInfinity;
        for (int j = mass.length - 1; j >= 0; j--) {
            double l = loss(j);
            if (l <= epsilon) {
                break;
            }
            d += mass[j] * -Math.expm1(epsilon - l);
        }
        return Math.min(1.0, d);
    }

    /**
     * The smallest {@code epsilon >= 0} with {@code delta(epsilon) <= delta} ({@code +inf} when the mass at infinity
     * alone exceeds delta). Walks down the grid keeping {@code S0 = sum mass} and {@code S1 = sum mass e^{-L}} over the
     * points above, where {@code delta(eps) = inf + S0 - e^eps S1} is exact, and solves that in closed form on the
     * interval where delta crosses the target. S1 is kept relative to the top loss so that it cannot overflow.
     */
    public double epsilon(double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta);
        }
        if (massAtInfinity > delta) {
            return Double.POSITIVE_INFINITY;
        }
        int top = mass.length - 1;
        while (top >= 0 && mass[top] == 0) {
            top--;
        }
        if (top < 0) {
            return 0.0;
        }
        double lTop = loss(top);
        double s0 = 0;
        double s1 = 0; // sum of mass e^{lTop - L}
        for (int j = top; j >= 0; j--) {
            double l = loss(j);
            s0 += mass[j];
            s1 += mass[j] * Math.exp(lTop - l);
            // on [L_{j-1}, L_j): delta(eps) = inf + s0 - e^{eps - lTop} s1
            double below = j > 0 ? loss(j - 1) : Double.NEGATIVE_INFINITY;
            if (below != Double.NEGATIVE_INFINITY && lTop - below > EXPONENT_RANGE) {
                // e^{below - lTop} would underflow and the closed form lose its meaning: use delta itself
                return bisectEpsilon(delta);
            }
            double atBelow = below == Double.NEGATIVE_INFINITY ? massAtInfinity + s0
                    : massAtInfinity + s0 - Math.exp(below - lTop) * s1;
            if (atBelow <= delta && j == 0) {
                return 0.0; // delta holds even as epsilon goes to -inf
            }
            if (atBelow > delta) {
                double eps = lTop + Math.log((massAtInfinity + s0 - delta) / s1);
                if (!(eps <= l)) {
                    eps = l; // rounding at the point itself
                }
                if (below != Double.NEGATIVE_INFINITY && !(eps >= below)) {
                    eps = below; // delta(below) > delta: never report less than below, whatever the rounding
                }
                return Math.max(0.0, eps);
            }
            if (Double.isInfinite(s1)) {
                // losses spread wider than a double's exponent range: fall back to bisection on delta itself
                return bisectEpsilon(delta);
            }
        }
        return 0.0;
    }

    private double bisectEpsilon(double delta) {
        double lo = 0;
        double hi = Math.max(1.0, loss(mass.length - 1));
        if (delta(lo) <= delta) {
            return 0.0;
        }
        for (int i = 0; i < 200 && Math.nextUp(lo) < hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (delta(mid) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** {@code ln sum_j mass[j] e^{lambda L_j}} over the finite masses ({@code -inf} when there are none). */
    double logMomentGenerating(double lambda) {
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < mass.length; j++) {
            if (mass[j] > 0) {
                max = Math.max(max, lambda * loss(j));
            }
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return max;
        }
        double s = 0;
        for (int j = 0; j < mass.length; j++) {
            if (mass[j] > 0) {
                s += mass[j] * Math.exp(lambda * loss(j) - max);
            }
        }
        return max + Math.log(s);
    }

    /**
     * {@code ln M(lambda)} at {@code lambda = +LADDER[j]} (row 0) and {@code -LADDER[j]} (row 1), cached: a run prices
     * the same release again and again, each time composed a different number of times.
     */
    synchronized double[][] logMgfOnLadder() {
        if (ladder == null) {
            double[][] l = new double[2][LADDER.length];
            for (int j = 0; j < LADDER.length; j++) {
                l[0][j] = logMomentGenerating(LADDER[j]);
                l[1][j] = logMomentGenerating(-LADDER[j]);
            }
            ladder = l;
        }
        return ladder;
    }

    /** The 2-norm of the finite masses (for the rounding bound of FFT composition). */
    double twoNorm() {
        double s = 0;
        for (double m : mass) {
            s += m * m;
        }
        return Math.sqrt(s);
    }

    /** The masses (a copy). */
    double[] masses() {
        return mass.clone();
    }

    @Override
    public String toString() {
        return "DiscretePld(interval=" + interval + ", losses " + loss(0) + ".." + loss(Math.max(0, mass.length - 1))
                + ", " + mass.length + " points, mass at infinity " + massAtInfinity + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DiscretePld d && d.interval == interval && d.offset == offset
                && d.massAtInfinity == massAtInfinity && Arrays.equals(d.mass, mass);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(mass) * 31 + Long.hashCode(offset);
    }
}
