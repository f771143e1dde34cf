package org.dpdl4j.attacks.observe;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.dpdl4j.data.RandomStreams;
import org.dpdl4j.privacy.noise.NoiseKey;

/**
 * The training records of the parties that surround an attacked party holding only the target: a seeded
 * permutation of the training set without the targets, cut to the number needed.
 */
final class OtherRecords {
    private OtherRecords() {
    }

    /**
     * @param size    training-set size
     * @param targets the attacked images (never drawn)
     * @param needed  how many records the other parties hold together
     * @param seed    the campaign's seed
     * @param purpose the stream's label (each protocol draws its own)
     * @param scenario the scenario's name for the error message
     */
    static int[] draw(int size, int[] targets, int needed, long seed, String purpose, String scenario) {
        Set<Integer> excluded = new HashSet<>();
        for (int t : targets) {
            excluded.add(t);
        }
        if (size - excluded.size() < needed) {
            throw new IllegalArgumentException("the " + scenario + " scenario needs " + needed + " training records besides"
                    + " the targets, the training set has " + size);
        }
        int[] order = RandomStreams.permutation(size, new SplittableRandom(new NoiseKey(seed, purpose, 0, 0).seed()));
        return Arrays.stream(order).filter(r -> !excluded.contains(r)).limit(needed).toArray();
    }
}
