package org.dpdl4j.audit;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Which guesses the auditor may make, fixed before it sees the scores: one or more (kPlus, kMinus) pairs. With more
 * than one, the audit reports the best bound over them, each computed at confidence {@code 1 - beta / pairs} (a
 * union bound), so choosing the best pair after the fact keeps the stated confidence.
 *
 * @param pairs the candidate (kPlus, kMinus) pairs, each {@code int[2]}
 */
public record GuessPlan(List<int[]> pairs) {

    public GuessPlan {
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("a guess plan needs at least one (kPlus, kMinus) pair");
        }
        for (int[] p : pairs) {
            if (p.length != 2 || p[0] < 0 || p[1] < 0 || p[0] + p[1] == 0) {
                throw new IllegalArgumentException("each guess pair is (kPlus >= 0, kMinus >= 0) with at least one guess, got "
                        + java.util.Arrays.toString(p));
            }
        }
        pairs = List.copyOf(pairs);
    }

    /** Exactly {@code kPlus} "in" guesses on the top scores and {@code kMinus} "out" guesses on the bottom ones. */
    public static GuessPlan fixed(int kPlus, int kMinus) {
        return new GuessPlan(List.<int[]>of(new int[]{kPlus, kMinus}));
    }

    /**
     * The default for m canaries: "in" guesses only on the top 1%, 2%, 5%, 10%, 20% and 50% of the scores (at least
     * one guess each; sizes repeated by rounding are taken once). Inclusion shows most in the top scores of a
     * white-box audit: a sampled canary adds to its own score, while an excluded one and an included one that was
     * rarely sampled look alike.
     */
    public static GuessPlan sweep(int canaries) {
        if (canaries < 1) {
            throw new IllegalArgumentException("a guess plan needs at least one canary, got " + canaries);
        }
        LinkedHashSet<Integer> sizes = new LinkedHashSet<>();
        for (double f : new double[]{0.01, 0.02, 0.05, 0.10, 0.20, 0.50}) {
            sizes.add(Math.max(1, (int) Math.round(f * canaries)));
        }
        List<int[]> pairs = new ArrayList<>();
        for (int k : sizes) {
            pairs.add(new int[]{k, 0});
        }
        return new GuessPlan(pairs);
    }

    /** One line, e.g. "kPlus=10, kMinus=0" or "best of 6 (kPlus, kMinus) pairs, Bonferroni-corrected". */
    public String describe() {
        if (pairs.size() == 1) {
            return "kPlus=" + pairs.get(0)[0] + ", kMinus=" + pairs.get(0)[1];
        }
        StringBuilder b = new StringBuilder("best of " + pairs.size() + " (kPlus, kMinus) pairs {");
        for (int i = 0; i < pairs.size(); i++) {
            b.append(i == 0 ? "" : ", ").append('(').append(pairs.get(i)[0]).append(", ").append(pairs.get(i)[1]).append(')');
        }
        return b.append("}, each at confidence 1 - beta/").append(pairs.size()).toString();
    }
}
