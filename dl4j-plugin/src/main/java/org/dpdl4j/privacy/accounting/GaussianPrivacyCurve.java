package org.dpdl4j.privacy.accounting;

/**
 * The exact privacy curve of a Gaussian mechanism whose sensitivity is {@code mu} noise standard deviations
 * (Balle &amp; Wang 2018, Thm. 8; mu-GDP of Dong, Roth &amp; Su 2022):
 * <pre>  delta(epsilon) = Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2).</pre>
 * It is tight: no smaller delta holds at this epsilon for this mechanism. An adaptive composition of Gaussian
 * mechanisms with parameters {@code mu_i} is exactly the Gaussian mechanism with {@code mu^2 = sum mu_i^2} (the
 * privacy loss of each is Gaussian, {@code N(mu_i^2/2, mu_i^2)}, and Gaussian losses add), so the curve prices a whole
 * ledger of unsampled Gaussian releases with no conversion loss.
 *
 * <p>Inverses are found by bisection to the last bits of a double and returned on the safe side: {@link #epsilon}
 * never below the true epsilon, {@link #mu} never above the true largest mu.
 */
public final class GaussianPrivacyCurve {
    private static final int BISECTIONS = 200;

    private GaussianPrivacyCurve() {
    }

    /** The smallest delta of the Gaussian mechanism at {@code epsilon}; {@code mu = +inf} gives 1 (no privacy). */
    public static double delta(double mu, double epsilon) {
        requireMu(mu);
        if (Double.isNaN(epsilon)) {
            throw new IllegalArgumentException("epsilon is NaN");
        }
        if (mu == 0.0) {
            return Math.max(0.0, -Math.expm1(epsilon)); // identical outputs: only the trivial part below epsilon 0
        }
        if (mu == Double.POSITIVE_INFINITY || epsilon == Double.NEGATIVE_INFINITY) {
            return 1.0;
        }
        if (epsilon == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        double logA = StandardNormal.logCdf(-epsilon / mu + mu / 2);
        double logB = epsilon + StandardNormal.logCdf(-epsilon / mu - mu / 2);
        if (logA == Double.NEGATIVE_INFINITY || logB >= logA) {
            return 0.0;
        }
        // A - B = A (1 - B/A), with B/A formed in logs: both terms underflow together far in the tail
        return Math.min(1.0, Math.exp(logA) * -Math.expm1(logB - logA));
    }

    /**
     * The smallest {@code epsilon >= 0} with {@code delta(mu, epsilon) <= delta} (rounded up), {@code +inf} when mu is.
     *
     * @param delta in (0, 1)
     */
    public static double epsilon(double mu, double delta) {
        requireMu(mu);
        ZCdp.requireDelta(delta);
        if (mu == 0.0 || delta(mu, 0.0) <= delta) {
            return 0.0;
        }
        if (mu == Double.POSITIVE_INFINITY) {
            return Double.POSITIVE_INFINITY;
        }
        // mu^2/2-zCDP holds for this mechanism, so its (valid, looser) epsilon brackets the exact one from above
        double hi = ZCdp.epsilon(mu * mu / 2, delta);
        while (delta(mu, hi) > delta) {
            hi *= 2; // never taken in exact arithmetic; guards against rounding at the bracket's end
        }
        double lo = 0.0;
        for (int i = 0; i < BISECTIONS && Math.nextUp(lo) < hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (delta(mu, mid) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * The largest mu whose Gaussian mechanism is {@code (epsilon, delta)}-DP (rounded down): the budget of a whole
     * ledger of Gaussian releases, whose {@code mu_i^2} may add up to its square.
     *
     * @param epsilon a finite number {@code >= 0}
     * @param delta   in (0, 1)
     */
    public static double mu(double epsilon, double delta) {
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be a finite number >= 0, got " + epsilon);
        }
        ZCdp.requireDelta(delta);
        // every mu-GDP mechanism is mu^2/2-zCDP, so the zCDP budget is feasible here and a lower end of the bracket
        double lo = epsilon > 0 ? Math.sqrt(2 * ZCdp.rho(epsilon, delta)) : 0.0;
        while (lo > 0 && delta(lo, epsilon) > delta) {
            lo /= 2; // rounding guard, as above
        }
        double hi = Math.max(2 * lo, 1e-3);
        while (delta(hi, epsilon) <= delta) {
            hi *= 2;
        }
        for (int i = 0; i < BISECTIONS && Math.nextUp(lo) < hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (delta(mid, epsilon) <= delta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static void requireMu(double mu) {
        if (!(mu >= 0)) {
            throw new IllegalArgumentException("mu (sensitivity over noise standard deviation) must be >= 0, got " + mu);
        }
    }
}
