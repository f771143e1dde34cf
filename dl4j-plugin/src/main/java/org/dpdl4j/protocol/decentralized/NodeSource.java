package org.dpdl4j.protocol.decentralized;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.TrainingSet;

/**
 * Where a decentralized run's nodes get their local data: given one dataset per node, or split from a training set
 * with the run's seed. The sizes alone (for pricing) never need the split's examples to be copied.
 */
public sealed interface NodeSource {

    /** Node i holds {@code data.get(i)}. */
    static NodeSource given(List<NodeData> data) {
        return new Given(List.copyOf(data));
    }

    /** One part of {@code set} per node, as {@code how} assigns them. */
    static NodeSource split(TrainingSet set, PartySplit how) {
        return new Split(Objects.requireNonNull(set, "training set"), Objects.requireNonNull(how, "split"));
    }

    /** The number of examples of each of the {@code n} nodes. */
    long[] sizes(int n, long seed);

    /** The nodes' datasets, node i holding element i, and how they were made. */
    Nodes nodes(int n, long seed);

    /** The shape of the data for memory estimates. */
    DataShape shape(int n, long seed);

    /** The smallest local dataset. */
    default long smallest(int n, long seed) {
        return Arrays.stream(sizes(n, seed)).min().orElseThrow();
    }

    /**
     * The nodes' datasets.
     *
     * @param data   node i's examples at element i
     * @param report how a training set was split over the nodes, null when the datasets were given
     */
    record Nodes(List<NodeData> data, String report) {
        public Nodes {
            data = List.copyOf(data);
        }
    }

    /** Datasets given per node. */
    record Given(List<NodeData> data) implements NodeSource {
        @Override
        public long[] sizes(int n, long seed) {
            requireCount(n);
            return data.stream().mapToLong(NodeData::size).toArray();
        }

        @Override
        public Nodes nodes(int n, long seed) {
            requireCount(n);
            return new Nodes(data, null);
        }

        @Override
        public DataShape shape(int n, long seed) {
            return DataShape.of(data);
        }

        private void requireCount(int n) {
            if (data.size() != n) {
                throw new IllegalArgumentException("the graph has " + n + " nodes but " + data.size() + " local datasets"
                        + " were given");
            }
        }
    }

    /** A training set split over the nodes with the run's seed. */
    record Split(TrainingSet set, PartySplit how) implements NodeSource {
        @Override
        public long[] sizes(int n, long seed) {
            return set.partySizes(how, n, seed);
        }

        @Override
        public Nodes nodes(int n, long seed) {
            TrainingSet.Parties parts = set.split(how, n, seed);
            return new Nodes(parts.data(), parts.report());
        }

        @Override
        public DataShape shape(int n, long seed) {
            return DataShape.of(set, how, n, seed);
        }
    }
}
