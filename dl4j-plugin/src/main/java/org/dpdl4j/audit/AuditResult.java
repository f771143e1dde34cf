package org.dpdl4j.audit;

import java.util.Locale;
import org.dpdl4j.privacy.ledger.EpsilonFormat;

/**
 * What a one-run audit found: the epsilon lower bound at its confidence, the guesses it came from, and the
 * membership-inference statistics of the same scores.
 *
 * @param canaries        m, all canaries
 * @param included        how many the coins included
 * @param guesses         the guesses of the pair that gave the bound
 * @param plan            the guess plan the bound was chosen over
 * @param delta           the delta of the hypotheses (the run's delta)
 * @param confidence      the confidence of the bound, 1 - beta (over the whole plan)
 * @param epsilonLower    the lower bound: the run is not (eps, delta)-DP for any eps below it, at that confidence
 * @param auc             ROC AUC of the scores as a test of inclusion (0.5 is chance)
 * @param tprAtFpr1pct    true-positive rate at a false-positive rate of at most 1%
 * @param tprAtFpr01pct   true-positive rate at a false-positive rate of at most 0.1%
 */
public record AuditResult(int canaries, int included, Guesses guesses, GuessPlan plan, double delta, double confidence,
                          double epsilonLower, double auc, double tprAtFpr1pct, double tprAtFpr01pct) {

    /**
     * Audits scores against the coins: the best lower bound over the plan's guess pairs (each at confidence
     * {@code 1 - (1 - confidence) / pairs}) and the scores' membership statistics.
     *
     * @param scores     one per canary, higher meaning "more likely included"
     * @param coins      whether each canary was included
     * @param plan       the guesses allowed (fixed before seeing the scores)
     * @param delta      the run's delta
     * @param confidence 1 - beta, e.g. {@link OneRunAudit#DEFAULT_CONFIDENCE}
     * @throws IllegalArgumentException when a pair asks for more guesses than there are canaries, or the inputs do not
     *                                  fit (one coin per score, finite scores)
     */
    public static AuditResult of(double[] scores, boolean[] coins, GuessPlan plan, double delta, double confidence) {
        int m = scores.length;
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("the confidence must lie strictly between 0 and 1 (e.g. 0.95), got "
                    + confidence);
        }
        double perPair = 1 - (1 - confidence) / plan.pairs().size();
        Guesses best = null;
        double bestEpsilon = -1;
        for (int[] pair : plan.pairs()) {
            Guesses g = Guesses.of(scores, coins, pair[0], pair[1]);
            double eps = OneRunAudit.epsilonLowerBound(m, g.guesses(), g.correct(), delta, perPair);
            if (eps > bestEpsilon) {
                bestEpsilon = eps;
                best = g;
            }
        }
        int in = 0;
        for (boolean c : coins) {
            in += c ? 1 : 0;
        }
        boolean both = in > 0 && in < m;
        return new AuditResult(m, in, best, plan, delta, confidence, bestEpsilon,
                both ? MembershipInference.auc(scores, coins) : Double.NaN,
                both ? MembershipInference.truePositiveRateAt(scores, coins, 0.01) : Double.NaN,
                both ? MembershipInference.truePositiveRateAt(scores, coins, 0.001) : Double.NaN);
    }

    /** A few lines for people: the bound, its confidence and guesses, and the membership statistics. */
    public String text() {
        return String.format(Locale.ROOT, "epsilon lower bound %s at %s%% confidence (delta = %.3g): %d of %d guesses"
                        + " right (kPlus = %d, kMinus = %d; %s)%n%d canaries, %d included; membership inference on the same"
                        + " scores: AUC %.4f, TPR %.4f at FPR 1%%, %.4f at FPR 0.1%%%n",
                EpsilonFormat.downward(epsilonLower, 4), confidencePercent(confidence), delta, guesses.correct(), guesses.guesses(), guesses.kPlus(),
                guesses.kMinus(), plan.describe(), canaries, included, auc, tprAtFpr1pct, tprAtFpr01pct);
    }

    /** A confidence in percent as given, never rounded (0.95 reads 95, 0.9999 reads 99.99, not 100). */
    public static String confidencePercent(double confidence) {
        return new java.math.BigDecimal(Double.toString(confidence)).movePointRight(2).stripTrailingZeros().toPlainString();
    }
}
