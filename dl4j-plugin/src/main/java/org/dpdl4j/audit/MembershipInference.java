package org.dpdl4j.audit;

/**
 * A membership-inference view of the same scores, for orientation beside the epsilon lower bound: how well the
 * scores separate included from excluded canaries (ROC AUC), and the true-positive rate an attacker reaches when it
 * may wrongly accuse only a small fraction of the excluded ones. These are statistics of one run, without a
 * confidence statement; the lower bound is {@link OneRunAudit}'s.
 */
public final class MembershipInference {
    private MembershipInference() {
    }

    /**
     * The area under the ROC curve of the scores as a test of inclusion: the probability that an included canary
     * outscores an excluded one, ties counting half (the Mann-Whitney statistic). 0.5 is chance.
     *
     * @throws IllegalArgumentException when the coins hold no included or no excluded canary
     */
    public static double auc(double[] scores, boolean[] coins) {
        long[] counts = counts(scores, coins);
        Integer[] order = Guesses.ranking(scores);
        // Sum of the included canaries' ranks (1-based, ties sharing their average rank).
        double rankSum = 0;
        int i = 0;
        while (i < order.length) {
            int j = i;
            while (j + 1 < order.length && scores[order[j + 1]] == scores[order[i]]) {
                j++;
            }
            double averageRank = 0.5 * (i + j) + 1;
            for (int k = i; k <= j; k++) {
                if (coins[order[k]]) {
                    rankSum += averageRank;
                }
            }
            i = j + 1;
        }
        double in = counts[0];
        double out = counts[1];
        return (rankSum - in * (in + 1) / 2) / (in * out);
    }

    /**
     * The largest fraction of included canaries scoring strictly above a threshold that at most
     * {@code maxFalsePositiveRate} of the excluded canaries exceed.
     *
     * @param maxFalsePositiveRate in [0, 1], e.g. 0.01 or 0.001
     */
    public static double truePositiveRateAt(double[] scores, boolean[] coins, double maxFalsePositiveRate) {
        if (!(maxFalsePositiveRate >= 0 && maxFalsePositiveRate <= 1)) {
            throw new IllegalArgumentException("the false-positive rate must lie in [0, 1], got " + maxFalsePositiveRate);
        }
        long[] counts = counts(scores, coins);
        Integer[] order = Guesses.ranking(scores);
        long allowed = (long) Math.floor(maxFalsePositiveRate * counts[1] + 1e-9);
        long truePositives = 0;
        long falsePositives = 0;
        long best = 0;
        // Lower the threshold one group of equal scores at a time, from the top.
        int i = order.length - 1;
        while (i >= 0) {
            int j = i;
            while (j - 1 >= 0 && scores[order[j - 1]] == scores[order[i]]) {
                j--;
            }
            for (int k = j; k <= i; k++) {
                if (coins[order[k]]) {
                    truePositives++;
                } else {
                    falsePositives++;
                }
            }
            if (falsePositives > allowed) {
                break;
            }
            best = truePositives;
            i = j - 1;
        }
        return (double) best / counts[0];
    }

    /** {included, excluded}; refuses a set without both. */
    private static long[] counts(double[] scores, boolean[] coins) {
        if (scores.length != coins.length) {
            throw new IllegalArgumentException("one coin per score is needed: " + scores.length + " scores, "
                    + coins.length + " coins");
        }
        long in = 0;
        for (boolean c : coins) {
            in += c ? 1 : 0;
        }
        long out = coins.length - in;
        if (in == 0 || out == 0) {
            throw new IllegalArgumentException("membership statistics need both included and excluded canaries; got " + in
                    + " included and " + out + " excluded (use more canaries)");
        }
        return new long[]{in, out};
    }
}
