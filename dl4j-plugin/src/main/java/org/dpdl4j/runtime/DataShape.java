package org.dpdl4j.runtime;

import java.util.List;

/**
 * The sizes of a training set that decide its memory: examples, and values per example in features and labels.
 *
 * @param examples       N
 * @param features       feature values per example
 * @param labels         label values per example
 * @param widestParty    examples of the party with the most, or N when the data is not split
 */
public record DataShape(long examples, long features, long labels, long widestParty) {

    /** A training set as one party holds it. */
    public static DataShape of(TrainingSet set) {
        return new DataShape(set.size(), set.features().size(1), set.labels().size(1), set.size());
    }

    /**
     * A training set split over {@code parties} as the run will split it (only the indices are drawn, nothing is
     * copied). A split the run refuses (more parties than examples, say) counts as an even one: the run then stops
     * with the split's own reason, after the memory check.
     */
    public static DataShape of(TrainingSet set, PartySplit how, int parties, long seed) {
        long widest;
        try {
            int[] labels = set.isClassification() ? set.classLabels() : new int[(int) set.size()];
            int[][] indices = how.assign(labels, Math.max(1, set.numClasses()), parties, seed).indices();
            widest = java.util.Arrays.stream(indices).mapToLong(r -> r.length).max().orElse(1);
        } catch (IllegalArgumentException e) {
            widest = evenShare(set.size(), parties);
        }
        return new DataShape(set.size(), set.features().size(1), set.labels().size(1), widest);
    }

    /** The parties' own data sets. */
    public static DataShape of(List<NodeData> parties) {
        long examples = parties.stream().mapToLong(NodeData::size).sum();
        long widest = parties.stream().mapToLong(NodeData::size).max().orElse(0);
        if (parties.isEmpty()) {
            return new DataShape(0, 0, 0, 0);
        }
        NodeData first = parties.get(0);
        return new DataShape(examples, first.features().size(1), first.labels().size(1), widest);
    }

    /** The same examples over {@code parties} instead: the widest party scales with the mean share. */
    public DataShape over(long parties, long currentParties) {
        double scaled = Math.ceil((double) widestParty * currentParties / Math.max(1, parties));
        return new DataShape(examples, features, labels, (long) Math.min(examples, Math.max(evenShare(examples, parties), scaled)));
    }

    /** Values of one example, features and labels. */
    public long valuesPerExample() {
        return features + labels;
    }

    /** Bytes of one copy of every example, features and labels, at {@code valueBytes} per value. */
    public double bytes(int valueBytes) {
        return (double) examples * valuesPerExample() * valueBytes;
    }

    private static long evenShare(long examples, long parties) {
        return Math.max(1, (examples + parties - 1) / Math.max(1, parties));
    }
}
