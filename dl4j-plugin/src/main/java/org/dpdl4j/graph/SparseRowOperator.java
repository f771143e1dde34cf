package org.dpdl4j.graph;

import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.transforms.pairwise.arithmetic.Axpy;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A fixed [n, m] matrix A applied to stacked rows, {@code out = A X} for X of shape [m, p]. Gossip matrices of
 * sparse graphs and incidence matrices have O(n) non-zeros, so a dense product would cost O(n m p) where
 * O(nnz p) suffices: on a 64-node ring the dense product is 20x the work and makes a round grow quadratically
 * in n. Sparse matrices are applied as one axpy per non-zero over contiguous rows; matrices denser than half
 * fall back to one dense product (BLAS is faster there).
 */
public final class SparseRowOperator {
    /** Density above which the dense product is used. */
    static final double DENSE_ABOVE = 0.5;
    /**
     * Fixed cost of one ND4J op call, in element operations: with short rows (small models) the per-row calls
     * cost more than the dense product's wasted multiplications by zero.
     */
    static final long CALL_COST = 4096;

    private final int rows;
    private final int cols;
    private final int[] rowStart;   // CSR layout: entries of row i are [rowStart[i], rowStart[i + 1])
    private final int[] col;
    private final double[] value;
    private final double[][] dense;
    private final int nonZeroCount;
    private INDArray denseArray;    // the dense matrix in the data type last used, outside any workspace

    private SparseRowOperator(double[][] a) {
        this.rows = a.length;
        this.cols = rows == 0 ? 0 : a[0].length;
        int nnz = 0;
        for (double[] r : a) {
            if (r.length != cols) {
                throw new IllegalArgumentException("ragged matrix: a row has " + r.length + " entries, expected " + cols);
            }
            for (double v : r) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("matrix entry " + v + " is not finite");
                }
                nnz += v != 0 ? 1 : 0;
            }
        }
        this.rowStart = new int[rows + 1];
        this.col = new int[nnz];
        this.value = new double[nnz];
        int k = 0;
        for (int i = 0; i < rows; i++) {
            rowStart[i] = k;
            for (int j = 0; j < cols; j++) {
                if (a[i][j] != 0) {
                    col[k] = j;
                    value[k++] = a[i][j];
                }
            }
        }
        rowStart[rows] = k;
        this.nonZeroCount = nnz;
        this.dense = Matrices.copy(a);
    }

    /** The operator of matrix {@code a} (copied). */
    public static SparseRowOperator of(double[][] a) {
        return new SparseRowOperator(Objects.requireNonNull(a, "matrix"));
    }

    /** The operator of a 2-d INDArray (copied). */
    public static SparseRowOperator of(INDArray a) {
        if (a.rank() != 2) {
            throw new IllegalArgumentException("expected a matrix, got shape " + java.util.Arrays.toString(a.shape()));
        }
        return new SparseRowOperator(a.toDoubleMatrix());
    }

    /** Number of rows n of A (of the output). */
    public int rows() {
        return rows;
    }

    /** Number of columns m of A (rows of the input). */
    public int columns() {
        return cols;
    }

    /** Number of non-zero entries. */
    public int nonZeros() {
        return value.length;
    }

    /**
     * The matrix in compressed rows, as an accelerator applies it: row i's non-zeros are entries
     * {@code [rowStarts()[i], rowStarts()[i + 1])} of {@link #nonZeroColumns()} and {@link #nonZeroValues()}, in column
     * order (a copy).
     */
    public int[] rowStarts() {
        return rowStart.clone();
    }

    /** The column of each non-zero, row after row (a copy; see {@link #rowStarts()}). */
    public int[] nonZeroColumns() {
        return col.clone();
    }

    /** The value of each non-zero, row after row (a copy; see {@link #rowStarts()}). */
    public double[] nonZeroValues() {
        return value.clone();
    }

    /**
     * Whether rows of length {@code p} are mixed by one dense product: for matrices denser than half, or when the
     * rows are so short that one op call per non-zero costs more than the dense product.
     */
    public boolean isDenseFor(long p) {
        if ((double) nonZeroCount > DENSE_ABOVE * rows * (double) cols) {
            return true;
        }
        return (double) nonZeroCount * (p + CALL_COST) > (double) rows * cols * p;
    }

    private synchronized INDArray denseArray(org.nd4j.linalg.api.buffer.DataType type) {
        if (denseArray == null || denseArray.dataType() != type) {
            // Created outside workspaces: callers apply the operator inside per-round workspaces that are reset.
            try (var outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                denseArray = Nd4j.create(dense).castTo(type);
            }
        }
        return denseArray;
    }

    /**
     * Writes {@code A x} into {@code out}.
     *
     * @param x   [m, p], C order
     * @param out [n, p], C order, not overlapping x; overwritten
     */
    public void apply(INDArray x, INDArray out) {
        if (x.rank() != 2 || x.rows() != cols || out.rank() != 2 || out.rows() != rows || out.columns() != x.columns()) {
            throw new IllegalArgumentException("cannot apply a " + rows + "x" + cols + " operator to "
                    + java.util.Arrays.toString(x.shape()) + " into " + java.util.Arrays.toString(out.shape()));
        }
        if (isDenseFor(x.columns())) {
            denseArray(x.dataType()).mmul(x, out);
            return;
        }
        for (int i = 0; i < rows; i++) {
            applyRow(i, x, out.getRow(i));
        }
    }

    /**
     * Rows {@code [from, to)} of this operator as a worker that holds only them applies it to rows of length {@code p}
     * (see {@link OperatorRows}); they equal the rows of {@link #apply} bit for bit.
     */
    public OperatorRows rows(int from, int to, long p) {
        if (from < 0 || to > rows || from >= to) {
            throw new IllegalArgumentException("rows " + from + ".." + (to - 1) + " do not lie within the operator's " + rows + " rows");
        }
        java.util.TreeSet<Integer> read = new java.util.TreeSet<>();
        for (int k = rowStart[from]; k < rowStart[to]; k++) {
            read.add(col[k]);
        }
        int[] reads = read.stream().mapToInt(Integer::intValue).toArray();
        int[] starts = new int[to - from + 1];
        int[] positions = new int[rowStart[to] - rowStart[from]];
        double[] values = new double[positions.length];
        for (int i = from; i <= to; i++) {
            starts[i - from] = rowStart[i] - rowStart[from];
        }
        for (int k = rowStart[from]; k < rowStart[to]; k++) {
            positions[k - rowStart[from]] = java.util.Arrays.binarySearch(reads, col[k]);
            values[k - rowStart[from]] = value[k];
        }
        return new OperatorRows(from, to, cols, p, reads, starts, positions, values, isDenseFor(p) ? Matrices.copy(dense) : null);
    }

    /**
     * Writes row i of {@code A x} into {@code target} ([p] or [1, p]) with the sparse path's operations, so that rows
     * written one at a time (by any thread, in any order) equal those of {@link #apply} wherever {@link #isDenseFor}
     * is false. {@code x} must not be written while this runs.
     */
    public void applyRow(int i, INDArray x, INDArray target) {
        int start = rowStart[i];
        int end = rowStart[i + 1];
        if (start == end) {
            target.assign(0);
            return;
        }
        x.getRow(col[start]).muli(value[start], target);   // target = a_ij x_j in one pass (muli writes to its result only)
        for (int k = start + 1; k < end; k++) {
            Nd4j.exec(new Axpy(x.getRow(col[k]), target, target, value[k]));
        }
    }
}
