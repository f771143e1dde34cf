package org.dpdl4j.attacks.observe;

import org.dpdl4j.data.partition.Partition;
import org.dpdl4j.data.partition.Partitioner;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.options.RunOptions;

/**
 * The data loaders' partitioners (iid, dirichlet:ALPHA, shards:S) as the library's {@link PartySplit}: what
 * {@code --partition} names, for every caller that builds a run's {@link RunInputs}: the attack campaign's tapped
 * runs and the training session. It lives in the lowest module that knows both the data loaders and the core (the
 * core does not read data sets).
 */
public final class PartitionSchemes {
    private PartitionSchemes() {
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
