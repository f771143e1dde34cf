package org.dpdl4j.data.partition;

import org.dpdl4j.data.RandomStreams;

/** A uniformly random partition into nodes whose sizes differ by at most one. */
public record IidPartitioner() implements Partitioner {
    @Override
    public Partition partition(int[] labels, int numClasses, int nodes, long seed) {
        PartitionSupport.checkArguments(labels, numClasses, nodes);
        int[] order = RandomStreams.permutation(labels.length, RandomStreams.stream(seed, "partition-iid", 0));
        return new Partition("iid partition (seed " + seed + ")", PartitionSupport.cut(order, nodes), labels, numClasses);
    }
}
