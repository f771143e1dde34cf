package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;

/**
 * The "example-level epsilon" of the Decor reference code (spec 3.5.4), for reproducing its MNIST
 * figure only. <b>This is not a differential privacy guarantee</b>: the code applies the subsampled-RDP
 * bound of Wang, Balle and Kasiviswanathan to one step's correlated Gaussian and returns its minimum over
 * orders 2 to 100 - the RDP value of a single step, neither composed over the T steps nor converted to
 * (epsilon, delta). dpdl4j reports the proper guarantee of the same run next to it.
 */
public final class ReferenceCodeEpsilon {
    private static final double[] ORDERS = orders();

    private ReferenceCodeEpsilon() {
    }

    /** Integer orders 2..100 and a fine grid (step 0.01), as the reference code's search. */
    private static double[] orders() {
        double[] o = new double[9801];
        for (int i = 0; i < o.length; i++) {
            o[i] = 2.0 + i * 0.01;
        }
        return o;
    }

    /**
     * The reference code's value for one step of per-example clipping to C, averaging over batches of b
     * sampled without replacement from m local examples, with correlated noise of the given kappa.
     */
    public static double of(double kappa, double clipNorm, int batchSize, long localSize) {
        RdpAccountant one = new RdpAccountant(NeighbouringRelation.REPLACE_ONE, ORDERS)
                .compose(new SampledWithoutReplacementEvent(localSize, batchSize,
                        new CorrelatedGaussianEvent(kappa, clipNorm / batchSize)));
        double min = Double.POSITIVE_INFINITY;
        for (double v : one.rdp()) {
            min = Math.min(min, v);
        }
        return min;
    }

    /** The largest kappa whose reference-code epsilon is at most {@code target} (bisection on ln kappa). */
    public static double kappaFor(double target, double clipNorm, int batchSize, long localSize) {
        if (!(target > 0)) {
            throw new IllegalArgumentException("target must be > 0, got " + target);
        }
        double lo = 1e-30;
        double hi = 1.0;
        while (of(hi, clipNorm, batchSize, localSize) <= target) {
            lo = hi;
            hi *= 1e3;
        }
        while (of(lo, clipNorm, batchSize, localSize) > target) {
            lo *= 1e-3;
        }
        for (int i = 0; i < 200 && hi / lo > 1 + 1e-9; i++) {
            double mid = Math.sqrt(lo * hi);
            if (of(mid, clipNorm, batchSize, localSize) <= target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
