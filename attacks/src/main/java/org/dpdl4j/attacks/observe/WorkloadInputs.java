package org.dpdl4j.attacks.observe;

import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingSet;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * A campaign workload as the inputs of a registered protocol: the attacked network, the training set in its own
 * row order (so a release's rows are the workload's training indices, and the targets are known by them) with
 * one-hot labels, and the data loaders' split schemes ({@link PartitionSchemes}).
 */
final class WorkloadInputs {
    private WorkloadInputs() {
    }

    static RunInputs of(RunWorkload workload) {
        var train = workload.train();
        TrainingSet set = new TrainingSet(train.features().castTo(DataType.FLOAT),
                train.labelMatrix(LabelEncoding.ONE_HOT).castTo(DataType.FLOAT), train.labels(), train.numClasses());
        return RunInputs.of(workload.modelBuilder(), set, PartitionSchemes::of);
    }
}
