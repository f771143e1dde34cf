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

    /**
     * Parses a command-line name: {@code iid}, {@code dirichlet:ALPHA} or {@code shards:S}.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    static Partitioner parse(String text) {
        String t = text.trim();
        try {
            if (t.equals("iid")) {
                return iid();
            }
            if (t.startsWith("dirichlet:")) {
                return dirichlet(Double.parseDouble(t.substring("dirichlet:".length())));
            }
            if (t.startsWith("shards:")) {
                return shards(Integer.parseInt(t.substring("shards:".length())));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("partition '" + text + "' has a malformed number; use iid, dirichlet:ALPHA"
                    + " (e.g. dirichlet:10) or shards:S (e.g. shards:2)", e);
        }
        throw new IllegalArgumentException("unknown partition '" + text + "'; use iid, dirichlet:ALPHA (e.g. dirichlet:10)"
                + " or shards:S (e.g. shards:2)");
    }
}
