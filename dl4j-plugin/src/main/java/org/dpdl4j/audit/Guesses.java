package org.dpdl4j.audit;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The auditor's guesses from its scores: "in" for the {@code kPlus} highest-scoring canaries, "out" for the
 * {@code kMinus} lowest, abstention on the rest; and how many of them the coins prove right.
 *
 * @param kPlus   canaries guessed "in"
 * @param kMinus  canaries guessed "out"
 * @param correct right guesses among the kPlus + kMinus
 */
public record Guesses(int kPlus, int kMinus, int correct) {

    public Guesses {
        if (kPlus < 0 || kMinus < 0 || correct < 0 || correct > kPlus + kMinus) {
            throw new IllegalArgumentException("guesses need kPlus, kMinus >= 0 and 0 <= correct <= kPlus + kMinus, got "
                    + kPlus + ", " + kMinus + ", " + correct);
        }
    }

    /** r, the guesses made. */
    public int guesses() {
        return kPlus + kMinus;
    }

    /**
     * Guesses on the top {@code kPlus} and bottom {@code kMinus} scores. Ties are broken by canary index, which the
     * coins do not depend on, so the guesses stay a function of the scores alone.
     *
     * @param scores one per canary, higher meaning "more likely in"
     * @param coins  whether each canary was included
     * @throws IllegalArgumentException when the lengths differ, a score is not finite, or kPlus + kMinus &gt; m
     */
    public static Guesses of(double[] scores, boolean[] coins, int kPlus, int kMinus) {
        int m = scores.length;
        if (coins.length != m) {
            throw new IllegalArgumentException("one coin per score is needed: " + m + " scores, " + coins.length + " coins");
        }
        if (kPlus < 0 || kMinus < 0 || (long) kPlus + kMinus > m) {
            throw new IllegalArgumentException("kPlus + kMinus must lie in [0, m = " + m + "], got kPlus = " + kPlus
                    + ", kMinus = " + kMinus);
        }
        Integer[] order = ranking(scores);
        int correct = 0;
        for (int i = 0; i < kPlus; i++) {
            correct += coins[order[m - 1 - i]] ? 1 : 0;
        }
        for (int i = 0; i < kMinus; i++) {
            correct += coins[order[i]] ? 0 : 1;
        }
        return new Guesses(kPlus, kMinus, correct);
    }

    /** Canary indices by increasing score (ties by index). */
    static Integer[] ranking(double[] scores) {
        for (int i = 0; i < scores.length; i++) {
            if (!Double.isFinite(scores[i])) {
                throw new IllegalArgumentException("score " + i + " is " + scores[i] + ": every canary's score must be a"
                        + " finite number (a diverged run gives none; rerun with a smaller learning rate)");
            }
        }
        Integer[] order = new Integer[scores.length];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> scores[i]).thenComparingInt(i -> i));
        return order;
    }
}
