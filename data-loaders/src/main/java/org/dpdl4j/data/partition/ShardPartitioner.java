package org.dpdl4j.data.partition;

import java.util.Arrays;
import org.dpdl4j.data.RandomStreams;

/**
 * The shard partition of McMahan et al.: examples sorted by label (ties in random order), cut into
 * {@code nodes * shardsPerNode} consecutive shards of equal size up to one, and each node given
 * {@code shardsPerNode} shards chosen at random. With 2 shards per node most nodes see 2 classes.
 *
 * @param shardsPerNode the number of shards of each node, &ge; 1
 */
public record ShardPartitioner(int shardsPerNode) implements Partitioner {
    public ShardPartitioner {
        if (shardsPerNode < 1) {
            throw new IllegalArgumentException("the number of shards per node (S in shards:S) must be at least 1, got "
                    + shardsPerNode + "; e.g. shards:2");
        }
    }

    @Override
    public Partition partition(int[] labels, int numClasses, int nodes, long seed) {
        PartitionSupport.checkArguments(labels, numClasses, nodes);
        long shards = (long) nodes * shardsPerNode;
        if (shards > labels.length) {
            throw new IllegalArgumentException(nodes + " nodes x " + shardsPerNode + " shards = " + shards
                    + " shards, more than the " + labels.length + " examples; use fewer shards per node or fewer nodes");
        }
        // Random order first, then a stable sort by label: examples of one class end up in random order.
        int[] shuffled = RandomStreams.permutation(labels.length, RandomStreams.stream(seed, "partition-shards-order", 0));
        int[] sorted = new int[labels.length];
        int[][] byClass = PartitionSupport.indicesByClass(labels, numClasses);
        int[] start = new int[numClasses];
        for (int c = 1; c < numClasses; c++) {
            start[c] = start[c - 1] + byClass[c - 1].length;
        }
        for (int i : shuffled) {
            sorted[start[labels[i]]++] = i;
        }
        int[][] pieces = PartitionSupport.cut(sorted, (int) shards);
        int[] shardOrder = RandomStreams.permutation((int) shards, RandomStreams.stream(seed, "partition-shards-deal", 0));
        int[][] nodeIndices = new int[nodes][];
        for (int k = 0; k < nodes; k++) {
            int[] own = new int[0];
            for (int j = 0; j < shardsPerNode; j++) {
                int[] piece = pieces[shardOrder[k * shardsPerNode + j]];
                int old = own.length;
                own = Arrays.copyOf(own, old + piece.length);
                System.arraycopy(piece, 0, own, old, piece.length);
            }
            nodeIndices[k] = own;
        }
        return new Partition(shardsPerNode + "-shards-per-node partition (seed " + seed + ")", nodeIndices, labels,
                numClasses);
    }
}
