package org.dpdl4j.audit;

/**
 * The one-run privacy audit's conversion from guesses to an epsilon lower bound (Steinke, Nasr and Jagielski,
 * "Privacy Auditing with One (1) Training Run", NeurIPS 2023: their main theorem for (eps, delta)-DP, with its delta
 * term, as their Appendix D evaluates it).
 *
 * <p>m canaries are each included in the training run independently with probability 1/2. After training the
 * auditor guesses "in" or "out" for r of them (abstaining on the rest) and v guesses are right. If the training is
 * (eps, delta)-DP with respect to each canary, then
 * <pre>
 *   P[correct &gt;= v] &lt;= P[W &gt;= v] + 2 m delta * max_{i = 1..v} P[v - i &lt;= W &lt; v] / i,   W ~ Binomial(r, e^eps / (1 + e^eps))
 * </pre>
 * (W is what r answers of eps-DP randomized response would score). The right side is the p-value of the
 * hypothesis "the run is (eps, delta)-DP" given v correct guesses; the audit rejects it at level beta when the
 * p-value is below beta. The lower bound is the smallest eps the audit cannot reject: every smaller eps is
 * rejected, so a run that is truly (eps, delta)-DP reports a larger lower bound with probability at most beta.
 *
 * <p>All probabilities are computed in log space (they fall far below the smallest double for thousands of
 * guesses), and the bound is found by a scan in steps of {@link #SCAN_STEP} followed by bisection to
 * {@link #TOLERANCE}, so that a p-value that is not monotone in eps (its delta term is not) cannot let a larger
 * rejected eps hide an accepted smaller one at the scan's resolution.
 */
public final class OneRunAudit {
    /** The default confidence of a lower bound: 95%. */
    public static final double DEFAULT_CONFIDENCE = 0.95;
    /** The scan's step in eps before bisection. */
    static final double SCAN_STEP = 0.01;
    /** How close the bisection brings the bound to the first eps not rejected (it errs low). */
    static final double TOLERANCE = 1e-9;
    /** No lower bound is reported above this (a p-value that stays below beta up to here is treated as this). */
    static final double MAX_EPSILON = 100.0;

    private OneRunAudit() {
    }

    /**
     * The p-value of "the run is (eps, delta)-DP" after {@code correct} right guesses out of {@code guesses}, capped
     * at 1.
     *
     * @param canaries m, the canaries whose inclusion was randomized (guessed on or not)
     * @param guesses  r &lt;= m, the guesses made (abstentions excluded)
     * @param correct  v &lt;= r, the right ones
     * @param epsilon  eps &gt;= 0 of the hypothesis
     * @param delta    delta in [0, 1] of the hypothesis
     */
    public static double pValue(long canaries, long guesses, long correct, double epsilon, double delta) {
        checkCounts(canaries, guesses, correct);
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be a finite number >= 0, got " + epsilon);
        }
        checkDelta(delta);
        return Math.min(1.0, Math.exp(logPValue(canaries, (int) guesses, (int) correct, epsilon, delta)));
    }

    /** ln of the (uncapped) p-value. */
    static double logPValue(long m, int r, int v, double epsilon, double delta) {
        BinomialTails w = BinomialTails.randomizedResponse(r, epsilon);
        double logTail = w.logUpperTail(v);
        if (delta == 0 || v == 0) {
            return logTail;
        }
        // max over i of P[v - i <= W <= v - 1] / i, the window growing downwards from v - 1.
        double logWindow = Double.NEGATIVE_INFINITY;
        double logAlpha = Double.NEGATIVE_INFINITY;
        for (int i = 1; i <= v; i++) {
            logWindow = logAddExp(logWindow, w.logPmf(v - i));
            logAlpha = Math.max(logAlpha, logWindow - Math.log(i));
        }
        double logDeltaTerm = Math.log(2.0 * m * delta) + logAlpha;
        return logAddExp(logTail, logDeltaTerm);
    }

    /**
     * The epsilon lower bound at confidence {@code 1 - beta}: the smallest eps whose hypothesis (eps, delta)-DP the
     * guesses do not reject at level beta; 0 when even eps = 0 is not rejected (guesses no better than chance).
     *
     * @param canaries   m
     * @param guesses    r &lt;= m
     * @param correct    v &lt;= r
     * @param delta      delta in [0, 1) of the hypotheses (the delta of the run's guarantee)
     * @param confidence 1 - beta in (0, 1), e.g. {@link #DEFAULT_CONFIDENCE}
     */
    public static double epsilonLowerBound(long canaries, long guesses, long correct, double delta, double confidence) {
        checkCounts(canaries, guesses, correct);
        checkDelta(delta);
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("the confidence must lie strictly between 0 and 1 (e.g. 0.95), got "
                    + confidence);
        }
        int r = (int) guesses;
        int v = (int) correct;
        double logBeta = Math.log1p(-confidence);
        if (!rejected(canaries, r, v, 0.0, delta, logBeta)) {
            return 0.0;
        }
        double lo = 0.0;
        double hi = SCAN_STEP;
        while (rejected(canaries, r, v, hi, delta, logBeta)) {
            lo = hi;
            hi += SCAN_STEP;
            if (hi > MAX_EPSILON) {
                return MAX_EPSILON;
            }
        }
        while (hi - lo > TOLERANCE) {
            double mid = 0.5 * (lo + hi);
            if (rejected(canaries, r, v, mid, delta, logBeta)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** {@link #epsilonLowerBound(long, long, long, double, double)} at 95% confidence. */
    public static double epsilonLowerBound(long canaries, long guesses, long correct, double delta) {
        return epsilonLowerBound(canaries, guesses, correct, delta, DEFAULT_CONFIDENCE);
    }

    private static boolean rejected(long m, int r, int v, double epsilon, double delta, double logBeta) {
        return logPValue(m, r, v, epsilon, delta) < logBeta;
    }

    private static void checkCounts(long m, long r, long v) {
        if (m < 1) {
            throw new IllegalArgumentException("the audit needs at least one canary, got m = " + m);
        }
        if (r < 0 || r > m) {
            throw new IllegalArgumentException("the number of guesses r must lie in [0, m] = [0, " + m + "], got " + r);
        }
        if (v < 0 || v > r) {
            throw new IllegalArgumentException("the number of correct guesses v must lie in [0, r] = [0, " + r + "], got "
                    + v);
        }
        if (r > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("at most " + (Integer.MAX_VALUE - 1) + " guesses are supported, got " + r);
        }
    }

    private static void checkDelta(double delta) {
        if (!(delta >= 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in [0, 1), got " + delta);
        }
    }

    private static double logAddExp(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY) {
            return b;
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        double max = Math.max(a, b);
        return max + Math.log1p(Math.exp(Math.min(a, b) - max));
    }
}
