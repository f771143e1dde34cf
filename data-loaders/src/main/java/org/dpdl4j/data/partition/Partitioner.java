package org.dpdl4j.data.partition;

import java.util.Arrays;
import java.util.Objects;
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

    /** Common argument checks of every strategy. */
    static void checkArguments(int[] labels, int numClasses, int nodes) {
        Objects.requireNonNull(labels, "labels");
        if (nodes < 1) {
            throw new IllegalArgumentException("the number of nodes must be at least 1, got " + nodes);
        }
        if (nodes > labels.length) {
            throw new IllegalArgumentException("cannot give each of " + nodes + " nodes an example: there are only "
                    + labels.length + " examples; use at most " + labels.length + " nodes or more data");
        }
        if (numClasses < 1) {
            throw new IllegalArgumentException("numClasses must be at least 1, got " + numClasses);
        }
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= numClasses) {
                throw new IllegalArgumentException("label " + labels[i] + " of example " + i + " is outside 0.."
                        + (numClasses - 1));
            }
        }
    }

    /** Cuts {@code order} into {@code parts} consecutive pieces whose sizes differ by at most one. */
    static int[][] cut(int[] order, int parts) {
        int[][] out = new int[parts][];
        int n = order.length;
        for (int k = 0; k < parts; k++) {
            int from = (int) ((long) k * n / parts);
            int to = (int) ((long) (k + 1) * n / parts);
            out[k] = Arrays.copyOfRange(order, from, to);
        }
        return out;
    }
}
