package org.dpdl4j.attacks.observe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Puts each target image where a party's sampler will take it in an attacked round, so that release provably
 * contains it. Parties hold blocks of training-set indices; target {@code j} goes to party {@code j mod P} at round
 * {@code first + j / P} (later rounds for the same party if that row already holds a target), swapped with the
 * example that sat there: every party keeps its size and the training set stays a permutation.
 */
final class TargetPlacement {

    /** Which local row a party's sampler takes in a round (a function of public seeds, as in the protocol). */
    @FunctionalInterface
    interface SampledRow {
        int at(int party, long round, int localSize);
    }

    /**
     * Where a target went.
     *
     * @param target training-set index of the image
     * @param party  the party that holds it
     * @param round  the round in which that party's release contains it (alone)
     * @param row    its row in the party's local data
     */
    record Placement(int target, int party, long round, int row) {
    }

    private TargetPlacement() {
    }

    /** The indices {@code 0..n-1} in a seeded random order, cut into {@code parties} blocks of (nearly) equal size. */
    static int[][] split(int n, int parties, long seed) {
        if (parties < 1 || parties > n) {
            throw new IllegalArgumentException("cannot split " + n + " examples over " + parties + " parties");
        }
        int[] order = org.dpdl4j.data.RandomStreams.permutation(n,
                org.dpdl4j.data.RandomStreams.stream(seed, "attack-campaign-split", 0));
        int[][] blocks = new int[parties][];
        int start = 0;
        for (int p = 0; p < parties; p++) {
            int size = n / parties + (p < n % parties ? 1 : 0);
            blocks[p] = java.util.Arrays.copyOfRange(order, start, start + size);
            start += size;
        }
        return blocks;
    }

    /**
     * Places the targets, rearranging {@code parties} in place.
     *
     * @param parties    each party's training-set indices (row r of party p holds example {@code parties[p][r]})
     * @param targets    training-set indices of the targets; each must occur in {@code parties}
     * @param firstRound the first attacked round
     * @param sampler    the row a party takes in a round
     */
    static List<Placement> place(int[][] parties, int[] targets, long firstRound, SampledRow sampler) {
        Map<Integer, int[]> where = new HashMap<>();
        for (int p = 0; p < parties.length; p++) {
            for (int r = 0; r < parties[p].length; r++) {
                where.put(parties[p][r], new int[] {p, r});
            }
        }
        int count = parties.length;
        long stride = (targets.length + count - 1) / count;
        Set<Long> taken = new HashSet<>();
        List<Placement> placements = new ArrayList<>();
        for (int j = 0; j < targets.length; j++) {
            int[] at = where.get(targets[j]);
            if (at == null) {
                throw new IllegalArgumentException("target " + targets[j] + " is not held by any party");
            }
            int party = j % count;
            long round = firstRound + j / count;
            int row = sampler.at(party, round, parties[party].length);
            while (!taken.add(((long) party << 32) | row)) {
                round += stride;
                row = sampler.at(party, round, parties[party].length);
            }
            int displaced = parties[party][row];
            parties[party][row] = targets[j];
            parties[at[0]][at[1]] = displaced;
            where.put(displaced, at);
            where.put(targets[j], new int[] {party, row});
            placements.add(new Placement(targets[j], party, round, row));
        }
        return placements;
    }
}
