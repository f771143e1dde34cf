package org.dpdl4j.privacy.accounting.pld;

/**
 * Pessimistic discretisation of a {@link PrivacyLossPair} on the grid {@code k * interval} (Doroshenko, Ghazi, Kamath,
 * Kumar &amp; Manurangsi 2022, "Connect the dots"). Each grid cell {@code (L_{k-1}, L_k]} of the loss holds P-mass m and
 * Q-mass {@code m' = E_P[e^{-L}; cell]}; the cell's mass is split between its two ends so that both m and m' are kept:
 * <pre>  w_k = (m - m' e^{L_{k-1}}) / (1 - e^{-interval}) at L_k,   m - w_k at L_{k-1}.</pre>
 * In the variable {@code y = e^{-L}} this spreads each cell's mass to the cell's ends with its mean kept. Every delta
 * is {@code E[(1 - e^eps y)_+]}, the expectation of a convex non-increasing function of y, so it can only grow
 * (Jensen), for one release and, because such spreads survive products of independent factors, for every composition
 * of them: the discrete distribution dominates the pair. Its privacy curve is the true one at the grid points, joined by
 * chords in {@code e^eps}. Unlike rounding every loss up, the error does not grow with the number of compositions.
 *
 * <p>Tails: P-mass left of {@link PrivacyLossPair#lowestLoss} goes to the first grid point (a move to larger losses,
 * which only overstates); P-mass right of {@link PrivacyLossPair#highestLoss} goes to infinite loss (counted in full
 * in every delta).
 */
public final class ConnectTheDots {
    /** The relative accuracy taken for the normal and Laplace distribution functions' tails (a tenfold margin). */
    static final double RELATIVE_ACCURACY = 1e-13;

    private ConnectTheDots() {
    }

    /**
     * @param pair     the release
     * @param interval the grid step, positive
     * @param tail     the P-mass each unbounded tail may leave the grid with (moved as above), in (0, 1/2]
     */
    public static DiscretePld discretise(PrivacyLossPair pair, double interval, double tail) {
        if (!(interval > 0)) {
            throw new IllegalArgumentException("grid interval must be positive, got " + interval);
        }
        double span = points(pair, interval, tail);
        if (span > PldComposition.MAX_POINTS) {
            throw new IllegalArgumentException("the loss range of " + pair + " needs " + span + " grid points at interval "
                    + interval + ", more than " + PldComposition.MAX_POINTS + "; use a coarser interval");
        }
        long first = (long) Math.floor(pair.lowestLoss(tail) / interval);
        long last = Math.max(first, (long) Math.ceil(pair.highestLoss(tail) / interval));
        int n = (int) (last - first + 1);
        double[] mass = new double[n];
        double spread = -Math.expm1(-interval); // 1 - e^{-interval}
        double left = pair.boundary(first * interval);
        mass[0] = pair.pMass(Double.NEGATIVE_INFINITY, left);
        for (int j = 1; j < n; j++) {
            double lower = (first + j - 1) * interval;
            double right = pair.boundary((first + j) * interval);
            if (right > left) {
                double m = pair.pMass(left, right);
                double mq = pair.qMass(left, right);
                // mq is 0 where e^lower overflows (the loss is huge there): 0 * inf must not become NaN
                double mqScaled = mq == 0.0 ? 0.0 : mq * Math.exp(lower);
                double up = Math.min(m, Math.max(0.0, (m - mqScaled) / spread));
                mass[j - 1] += m - up;
                mass[j] += up;
            }
            left = Math.max(left, right);
        }
        double atInfinity = pair.pMass(left, Double.POSITIVE_INFINITY) + roundingAllowance((last - first) * interval);
        return new DiscretePld(interval, first, mass, Math.min(1.0, atInfinity));
    }

    /** The number of grid points the release spans at this interval (a double: it may be astronomically large). */
    public static double points(PrivacyLossPair pair, double interval, double tail) {
        return Math.ceil(pair.highestLoss(tail) / interval) - Math.floor(pair.lowestLoss(tail) / interval) + 1;
    }

    /**
     * What rounding in the distribution functions can do to any delta of the discretised release. The masses are
     * differences of P's and Q's distribution functions at the cell boundaries (accurate to {@value #RELATIVE_ACCURACY}
     * of the tail they are taken from, see {@code StandardNormal}); an error e in the function at one boundary moves mass
     * between the neighbouring grid points (the split divides it by {@code 1 - e^{-interval}}, but in a second-difference
     * pattern), which changes a delta by about {@code e * interval}, or e where the delta's kink falls. Summed over the
     * boundaries that is at most {@code RELATIVE_ACCURACY * (4 * lossRange + 4)}: added to the mass at infinity, it keeps
     * the discretisation above the true curve despite rounding. Compositions add it once per release.
     */
    static double roundingAllowance(double lossRange) {
        return RELATIVE_ACCURACY * (4 * lossRange + 4);
    }
}
