package org.dpdl4j.runtime;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;
import static org.nd4j.linalg.indexing.NDArrayIndex.interval;
import static org.nd4j.linalg.indexing.NDArrayIndex.point;

/**
 * The batches of all nodes for one round in one tensor: features [n, b, nIn], labels [n, b, k], and,
 * when batch sizes differ (Poisson sampling), zero padding with a mask [n, b] that marks real examples.
 *
 * @param features stacked features
 * @param labels   stacked labels
 * @param mask     null when every node has exactly b examples, else 1 for real examples, 0 for padding
 * @param sizes    the real batch size of each node
 */
public record PaddedBatch(INDArray features, INDArray labels, INDArray mask, int[] sizes) {

    /**
     * Gathers {@code rows[i]} of node i's data for every node (one gather per node; the padded tensor is
     * at least one row deep, so an all-empty round still has a valid shape).
     */
    public static PaddedBatch gather(List<NodeData> nodes, int[][] rows, DataType type) {
        int n = nodes.size();
        if (rows.length != n) {
            throw new IllegalArgumentException(rows.length + " index sets for " + n + " nodes");
        }
        int max = 1;
        boolean equal = true;
        for (int[] r : rows) {
            max = Math.max(max, r.length);
            equal &= r.length == rows[0].length;
        }
        long nIn = nodes.get(0).features().size(1);
        long k = nodes.get(0).labels().size(1);
        int[] sizes = new int[n];
        if (equal && rows[0].length > 0) {
            INDArray[] f = new INDArray[n];
            INDArray[] l = new INDArray[n];
            for (int i = 0; i < n; i++) {
                f[i] = nodes.get(i).features().getRows(rows[i]).castTo(type);
                l[i] = nodes.get(i).labels().getRows(rows[i]).castTo(type);
                sizes[i] = rows[i].length;
            }
            return new PaddedBatch(Nd4j.stack(0, f), Nd4j.stack(0, l), null, sizes);
        }
        INDArray features = Nd4j.zeros(type, n, max, nIn);
        INDArray labels = Nd4j.zeros(type, n, max, k);
        INDArray mask = Nd4j.zeros(type, n, max);
        for (int i = 0; i < n; i++) {
            int b = rows[i].length;
            sizes[i] = b;
            if (b == 0) {
                continue;
            }
            features.get(point(i), interval(0, b), all()).assign(nodes.get(i).features().getRows(rows[i]));
            labels.get(point(i), interval(0, b), all()).assign(nodes.get(i).labels().getRows(rows[i]));
            mask.get(point(i), interval(0, b)).assign(1.0);
        }
        return new PaddedBatch(features, labels, mask, sizes);
    }
}
