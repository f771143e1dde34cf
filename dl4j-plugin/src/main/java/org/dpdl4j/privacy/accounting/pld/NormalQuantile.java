package org.dpdl4j.privacy.accounting.pld;

import org.dpdl4j.privacy.accounting.StandardNormal;

/** The point beyond which a standard normal has a given (tiny) tail mass, for truncating noise distributions. */
final class NormalQuantile {
    private NormalQuantile() {
    }

    /** The smallest t >= 0 (to about 1e-12) with {@code P(X > t) <= tail}, for tail in (0, 1/2]. */
    static double upperTail(double tail) {
        if (!(tail > 0 && tail <= 0.5)) {
            throw new IllegalArgumentException("tail mass must lie in (0, 1/2], got " + tail);
        }
        double lo = 0.0;
        double hi = 1.0;
        while (StandardNormal.sf(hi) > tail) {
            lo = hi;
            hi *= 2;
        }
        while (hi - lo > 1e-12) {
            double mid = 0.5 * (lo + hi);
            if (StandardNormal.sf(mid) > tail) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }
}
