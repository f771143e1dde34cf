package org.dpdl4j.data.partition;

import org.dpdl4j.data.LabeledData;

/**
 * Splits the examples of a data set over n nodes. Every strategy is deterministic for a seed and
 * assigns every example to exactly one node.
 */
public sealed interface Partitioner permits IidPartitioner, DirichletPartitioner, ShardPartitioner {

    /**
     * Partitions examples with the given class labels over {@code nodes} nodes.
     *
     * @throws IllegalArgumentException when nodes &lt; 1, nodes exceed the examples, or a node would be empty
     */
    Partition partition(int[] labels, int numClasses, int nodes, long seed);

    /** Partitions the examples of a data set. */
    default Partition partition(LabeledData data, int nodes, long seed) {
        return partition(data.labels(), data.numClasses(), nodes, seed);
    }

    /** Uniformly random, equal sizes up to one. */
    static Partitioner iid() {
        return new IidPartitioner();
    }

    /** Label skew: each class split over the nodes in Dirichlet(alpha) proportions. */
    static Partitioner dirichlet(double alpha) {
        return new DirichletPartitioner(alpha);
    }

    /** Pathological non-iid: sorted by label, cut into nodes x shardsPerNode shards, shardsPerNode per node. */
    static Partitioner shards(int shardsPerNode) {
        return new ShardPartitioner(shardsPerNode);
    }
}
