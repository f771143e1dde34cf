package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.partition.Partition;
import org.dpdl4j.data.partition.Partitioner;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;

/** The Decor workloads' split of a training set over 16 users: Dirichlet(10) label proportions, each example on one user. */
final class DirichletNodes {
    static final int USERS = 16;

    private DirichletNodes() {
    }

    static List<NodeData> split(LabeledData train, INDArray labelMatrix, long seed) {
        Partition split = Partitioner.dirichlet(10).partition(train, USERS, seed);
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            int[] rows = split.indices(i);
            out.add(new NodeData(Nd4j.pullRows(train.features(), 1, rows), Nd4j.pullRows(labelMatrix, 1, rows)));
        }
        return out;
    }
}
