package org.dpdl4j.runtime;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Where a run's parties (nodes, clients) get their local data: given one dataset per party, or split from a training
 * set with the run's seed. The sizes alone (for pricing) never need the split's examples to be copied.
 */
public sealed interface PartySource {

    /** Party i holds {@code data.get(i)}. */
    static PartySource given(List<NodeData> data) {
        return new Given(List.copyOf(data));
    }

    /** One part of {@code set} per party, as {@code how} assigns them. */
    static PartySource split(TrainingSet set, PartySplit how) {
        return new Split(Objects.requireNonNull(set, "training set"), Objects.requireNonNull(how, "split"));
    }

    /** The number of examples of each of the {@code n} parties. */
    long[] sizes(int n, long seed);

    /** The parties' datasets, party i holding element i, and how they were made. */
    Local local(int n, long seed);

    /** How many parties the data itself fixes: the number of datasets given; empty for a split (the run chooses). */
    java.util.OptionalInt count();

    /**
     * {@link #local} for a caller that checks the number of given datasets itself (to say a mismatch in its own terms):
     * the given datasets whatever {@code n} is, or the split into {@code n}.
     */
    Local localUnchecked(int n, long seed);

    /** The shape of the data for memory estimates. */
    DataShape shape(int n, long seed);

    /** The smallest local dataset. */
    default long smallest(int n, long seed) {
        return Arrays.stream(sizes(n, seed)).min().orElseThrow();
    }

    /**
     * The parties' datasets.
     *
     * @param data   party i's examples at element i
     * @param report how a training set was split over the parties, null when the datasets were given
     */
    record Local(List<NodeData> data, String report) {
        public Local {
            data = List.copyOf(data);
        }
    }

    /** Datasets given per party. */
    record Given(List<NodeData> data) implements PartySource {
        @Override
        public long[] sizes(int n, long seed) {
            requireCount(n);
            return data.stream().mapToLong(NodeData::size).toArray();
        }

        @Override
        public Local local(int n, long seed) {
            requireCount(n);
            return new Local(data, null);
        }

        @Override
        public java.util.OptionalInt count() {
            return java.util.OptionalInt.of(data.size());
        }

        @Override
        public Local localUnchecked(int n, long seed) {
            return new Local(data, null);
        }

        @Override
        public DataShape shape(int n, long seed) {
            return DataShape.of(data);
        }

        private void requireCount(int n) {
            if (data.size() != n) {
                throw new IllegalArgumentException("the run has " + n + " parties but " + data.size() + " local datasets"
                        + " were given");
            }
        }
    }

    /** A training set split over the parties with the run's seed. */
    record Split(TrainingSet set, PartySplit how) implements PartySource {
        @Override
        public long[] sizes(int n, long seed) {
            return set.partySizes(how, n, seed);
        }

        @Override
        public Local local(int n, long seed) {
            TrainingSet.Parties parts = set.split(how, n, seed);
            return new Local(parts.data(), parts.report());
        }

        @Override
        public java.util.OptionalInt count() {
            return java.util.OptionalInt.empty();
        }

        @Override
        public Local localUnchecked(int n, long seed) {
            return local(n, seed);
        }

        @Override
        public DataShape shape(int n, long seed) {
            return DataShape.of(set, how, n, seed);
        }
    }
}
