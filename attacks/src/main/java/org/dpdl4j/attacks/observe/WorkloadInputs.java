package org.dpdl4j.attacks.observe;

import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.partition.Partition;
import org.dpdl4j.data.partition.Partitioner;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunOptions;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * A campaign workload as the inputs of a registered protocol: the attacked network, the training set in its own
 * row order (so a release's rows are the workload's training indices, and the targets are known by them) with
 * one-hot labels, and the data loaders' split schemes.
 */
final class WorkloadInputs {
    private WorkloadInputs() {
    }

    static RunInputs of(RunWorkload workload) {
        var train = workload.train();
        TrainingSet set = new TrainingSet(train.features().castTo(DataType.FLOAT),
                train.labelMatrix(LabelEncoding.ONE_HOT).castTo(DataType.FLOAT), train.labels(), train.numClasses());
        return RunInputs.of(workload.modelBuilder(), set, WorkloadInputs::split);
    }

    /** The split of a scheme name, e.g. {@code dirichlet:10}. */
    private static PartySplit split(String scheme) {
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
