package org.dpdl4j.audit;

/**
 * Probabilities of a Binomial(r, q) variable in log space, so that tails far below the smallest double (as the
 * one-run audit meets with thousands of guesses) keep their value instead of rounding to 0.
 */
final class BinomialTails {
    private final int trials;
    private final double logQ;
    private final double logOneMinusQ;
    /** ln k! for k = 0..trials. */
    private final double[] logFactorial;

    /**
     * @param trials       r &gt;= 0
     * @param logQ         ln q, q the success probability
     * @param logOneMinusQ ln(1 - q), given separately so that q within rounding of 0 or 1 keeps its accuracy
     */
    BinomialTails(int trials, double logQ, double logOneMinusQ) {
        if (trials < 0) {
            throw new IllegalArgumentException("the number of trials must be >= 0, got " + trials);
        }
        if (!(logQ <= 0) || !(logOneMinusQ <= 0)) {
            throw new IllegalArgumentException("ln q and ln(1 - q) must be <= 0, got " + logQ + " and " + logOneMinusQ);
        }
        this.trials = trials;
        this.logQ = logQ;
        this.logOneMinusQ = logOneMinusQ;
        this.logFactorial = new double[trials + 1];
        for (int k = 1; k <= trials; k++) {
            logFactorial[k] = logFactorial[k - 1] + Math.log(k);
        }
    }

    /** Binomial(r, q) with q = 1 / (1 + e^-eps): the accuracy of eps-DP randomized response on one bit. */
    static BinomialTails randomizedResponse(int trials, double epsilon) {
        double logQ = -Math.log1p(Math.exp(-epsilon));
        return new BinomialTails(trials, logQ, -epsilon + logQ);
    }

    /** Binomial(r, q) for q in [0, 1]. */
    static BinomialTails of(int trials, double q) {
        if (!(q >= 0 && q <= 1)) {
            throw new IllegalArgumentException("the success probability must lie in [0, 1], got " + q);
        }
        return new BinomialTails(trials, Math.log(q), Math.log1p(-q));
    }

    /** ln P[X = k]; -infinity outside 0..r. */
    double logPmf(int k) {
        if (k < 0 || k > trials) {
            return Double.NEGATIVE_INFINITY;
        }
        double lc = logFactorial[trials] - logFactorial[k] - logFactorial[trials - k];
        return lc + times(k, logQ) + times(trials - k, logOneMinusQ);
    }

    /** k ln p with the convention 0 * ln 0 = 0. */
    private static double times(int k, double logP) {
        return k == 0 ? 0.0 : k * logP;
    }

    /** ln P[lo &lt;= X &lt;= hi] (the bounds are clamped to 0..r; an empty range gives -infinity). */
    double logRange(int lo, int hi) {
        int a = Math.max(lo, 0);
        int b = Math.min(hi, trials);
        double max = Double.NEGATIVE_INFINITY;
        for (int k = a; k <= b; k++) {
            max = Math.max(max, logPmf(k));
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return max;
        }
        double sum = 0;
        for (int k = a; k <= b; k++) {
            sum += Math.exp(logPmf(k) - max);
        }
        return max + Math.log(sum);
    }

    /** ln P[X &gt;= v]. */
    double logUpperTail(int v) {
        return logRange(v, trials);
    }

    int trials() {
        return trials;
    }
}
