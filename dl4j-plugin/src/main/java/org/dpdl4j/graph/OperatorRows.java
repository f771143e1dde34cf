package org.dpdl4j.graph;

import java.io.Serializable;
import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.transforms.pairwise.arithmetic.Axpy;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Rows {@code [from, to)} of a {@link SparseRowOperator} A, for a worker that holds only those rows of {@code A x}
 * (a block of gossiping nodes, the ends of some edges): which rows of x they read, and those rows of {@code A x}
 * computed with the very operations {@link SparseRowOperator#apply} uses, so that they equal its rows bit for bit.
 *
 * <p>Where {@code apply} multiplies densely (a dense matrix, or rows too short for one call per non-zero), these rows
 * are taken from the same whole product, with zeros for the rows of x they do not read: a product over fewer rows of
 * A may round differently, and the dense case is only chosen where the whole product is cheap or needs every row of
 * x anyway. Serializable, to travel to the worker.
 */
public final class OperatorRows implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int from;
    private final int to;
    private final int columns;
    private final long rowLength;
    private final int[] reads;
    private final int[] rowStart;
    private final int[] position;
    private final double[] value;
    private final double[][] dense;
    private transient INDArray denseArray;

    OperatorRows(int from, int to, int columns, long rowLength, int[] reads, int[] rowStart, int[] position, double[] value,
                 double[][] dense) {
        this.from = from;
        this.to = to;
        this.columns = columns;
        this.rowLength = rowLength;
        this.reads = reads;
        this.rowStart = rowStart;
        this.position = position;
        this.value = value;
        this.dense = dense;
    }

    /** The first row. */
    public int from() {
        return from;
    }

    /** One past the last row. */
    public int to() {
        return to;
    }

    /** The rows of x these rows of {@code A x} read (the columns of A with a non-zero in them), increasing. */
    public int[] reads() {
        return reads.clone();
    }

    /**
     * These rows in compressed form, as a device takes them: row i - from's non-zeros at {@code [rowStarts()[i - from],
     * rowStarts()[i - from + 1])} of {@link #positions()} (indices into {@link #reads()}) and {@link #values()}.
     */
    public int[] rowStarts() {
        return rowStart.clone();
    }

    /** See {@link #rowStarts()}. */
    public int[] positions() {
        return position.clone();
    }

    /** See {@link #rowStarts()}. */
    public double[] values() {
        return value.clone();
    }

    /** Whether these rows come from one dense product (see the class comment). */
    public boolean isDense() {
        return dense != null;
    }

    /**
     * Writes rows {@code [from, to)} of {@code A x} into {@code out}.
     *
     * @param read rows {@link #reads()} of x, in that order: [reads().length, p], C order
     * @param out  [to - from, p], C order, overwritten
     */
    public void apply(INDArray read, INDArray out) {
        if (read.rank() != 2 || read.rows() != reads.length || read.columns() != rowLength || out.rank() != 2
                || out.rows() != to - from || out.columns() != rowLength) {
            throw new IllegalArgumentException("rows " + from + ".." + (to - 1) + " of the operator read " + reads.length
                    + " rows of length " + rowLength + " and write " + (to - from) + "; got " + Arrays.toString(read.shape())
                    + " into " + Arrays.toString(out.shape()));
        }
        if (dense != null) {
            INDArray x = Nd4j.zeros(read.dataType(), columns, rowLength);
            for (int k = 0; k < reads.length; k++) {
                x.getRow(reads[k]).assign(read.getRow(k));
            }
            INDArray all = Nd4j.create(read.dataType(), dense.length, rowLength);
            denseArray(read.dataType()).mmul(x, all);
            for (int i = from; i < to; i++) {
                out.getRow(i - from).assign(all.getRow(i));
            }
            return;
        }
        for (int i = from; i < to; i++) {
            INDArray target = out.getRow(i - from);
            int start = rowStart[i - from];
            int end = rowStart[i - from + 1];
            if (start == end) {
                target.assign(0);
                continue;
            }
            read.getRow(position[start]).muli(value[start], target);
            for (int k = start + 1; k < end; k++) {
                Nd4j.exec(new Axpy(read.getRow(position[k]), target, target, value[k]));
            }
        }
    }

    private INDArray denseArray(DataType type) {
        if (denseArray == null || denseArray.dataType() != type) {
            try (var outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                denseArray = Nd4j.create(dense).castTo(type);
            }
        }
        return denseArray;
    }
}
