package org.dpdl4j.runtime;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.reduce.floating.SquaredNorm;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;

/**
 * Gathers every node's batch of a round with one ND4J row-gather for the features and one for the
 * labels. All local datasets are concatenated once into one matrix with a trailing all-zero row; a
 * round's rows are the nodes' local indices shifted by their offsets, and padding (for nodes with
 * fewer examples than the largest batch) points at the zero row. (Gathering node by node costs two
 * ND4J calls per node, and ND4J's {@code getRows} is far slower than {@code pullRows}.) The squared norm of
 * every example's features is computed once too and gathered with the batch, so per-example clipping
 * does not recompute it every round.
 */
public final class NodeBatches {
    private final INDArray features;
    private final INDArray labels;
    private final INDArray featureSquaredNorms;   // [total + 1, 1]
    private final long[] offsets;
    private final int zeroRow;
    private final DataType type;

    public NodeBatches(List<NodeData> nodes, DataType type) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("no node data");
        }
        this.type = type;
        int n = nodes.size();
        offsets = new long[n];
        INDArray[] f = new INDArray[n + 1];
        INDArray[] l = new INDArray[n + 1];
        long total = 0;
        for (int i = 0; i < n; i++) {
            offsets[i] = total;
            f[i] = nodes.get(i).features().castTo(type);
            l[i] = nodes.get(i).labels().castTo(type);
            total += nodes.get(i).size();
        }
        if (total >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("at most 2^31-2 examples over all nodes, got " + total);
        }
        f[n] = Nd4j.zeros(type, 1, f[0].size(1));
        l[n] = Nd4j.zeros(type, 1, l[0].size(1));
        this.features = Nd4j.concat(0, f);
        this.labels = Nd4j.concat(0, l);
        // The same reduction the clipping would run on each batch, so the norms are the same to the last bit.
        this.featureSquaredNorms = Nd4j.getExecutioner().exec(new SquaredNorm(features, 1)).reshape(total + 1, 1);
        this.zeroRow = (int) total;
    }

    /** The batch made of {@code rows[i]} (local indices) of every node i. */
    public PaddedBatch gather(int[][] rows) {
        return gather(rows, 1);
    }

    /**
     * The batch made of {@code rows[i]} of every node i, padded to at least {@code width} examples per node. The nodes
     * of one run spread over several workers gather their batches with the width the whole run would pad to: the
     * reductions over a node's batch then run over the same length, and round the same, as in one process.
     */
    public PaddedBatch gather(int[][] rows, int width) {
        return gather(rows(rows, width));
    }

    /** The values of a batch chosen by {@link #rows}: one row-gather each for features, labels and squared norms. */
    public PaddedBatch gather(BatchRows chosen) {
        int n = offsets.length;
        int max = chosen.width();
        INDArray f = Nd4j.pullRows(features, 1, chosen.rows()).reshape('c', n, max, features.size(1));
        INDArray l = Nd4j.pullRows(labels, 1, chosen.rows()).reshape('c', n, max, labels.size(1));
        INDArray m = chosen.mask() == null ? null : Nd4j.createFromArray(chosen.mask()).reshape(n, max).castTo(type);
        INDArray norms = Nd4j.pullRows(featureSquaredNorms, 1, chosen.rows()).reshape('c', n, max);
        return new PaddedBatch(f, l, m, chosen.sizes(), norms);
    }

    /**
     * Which rows of the concatenated data make the batch of {@code rows[i]} (local indices) of every node i, padded to
     * at least {@code width} examples per node, as {@link #gather(int[][], int)} takes them.
     */
    public BatchRows rows(int[][] rows, int width) {
        int n = offsets.length;
        if (rows.length != n) {
            throw new IllegalArgumentException(rows.length + " index sets for " + n + " nodes");
        }
        if (width < 1) {
            throw new IllegalArgumentException("a batch is padded to at least 1 example per node, got " + width);
        }
        int max = width;
        boolean equal = true;
        for (int[] r : rows) {
            max = Math.max(max, r.length);
            equal &= r.length == rows[0].length;
        }
        // Unpadded only where every node's batch fills the width (or, as one process gathers an all-empty round, where
        // every batch is empty and the width is 1).
        equal &= Math.max(1, rows[0].length) == max;
        int[] global = new int[n * max];
        int[] sizes = new int[n];
        float[] mask = equal ? null : new float[n * max];
        for (int i = 0; i < n; i++) {
            sizes[i] = rows[i].length;
            for (int j = 0; j < max; j++) {
                boolean real = j < rows[i].length;
                global[i * max + j] = real ? (int) (offsets[i] + rows[i][j]) : zeroRow;
                if (mask != null && real) {
                    mask[i * max + j] = 1f;
                }
            }
        }
        return new BatchRows(global, max, mask, sizes);
    }

    /** Every node's features, concatenated in node order, then one all-zero row (the padding's): [N + 1, nIn]. */
    public INDArray features() {
        return features;
    }

    /** Every node's labels as {@link #features()}: [N + 1, k]. */
    public INDArray labels() {
        return labels;
    }

    /** The squared norm of every row of {@link #features()}: [N + 1, 1]. */
    public INDArray featureSquaredNorms() {
        return featureSquaredNorms;
    }
}
