package org.dpdl4j.experiments.workload;

import org.dpdl4j.data.partition.Partition;
import org.dpdl4j.data.partition.Partitioner;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.options.RunOptions;

/** The data loaders' partitioners (iid, dirichlet:ALPHA, shards:S) as the library's {@link PartySplit}. */
public final class Partitioners {
    private Partitioners() {
    }

    /**
     * The split of a scheme name.
     *
     * @throws org.dpdl4j.runtime.options.InvalidOptionException naming {@code --partition}, the value and the
     *                                                         accepted schemes
     */
    public static PartySplit of(String scheme) {
        Partitioner partitioner;
        try {
            partitioner = Partitioner.parse(scheme);
        } catch (IllegalArgumentException e) {
            throw RunOptions.PARTITION.invalid(RunOptions.PARTITION.flag() + " " + scheme + ": " + e.getMessage());
        }
        return (labels, classes, parties, seed) -> {
            Partition p = partitioner.partition(labels, classes, parties, seed);
            int[][] indices = new int[p.nodes()][];
            for (int k = 0; k < indices.length; k++) {
                indices[k] = p.indices(k);
            }
            return new PartySplit.Parties(indices, p.report());
        };
    }
}
