package org.dpdl4j.graph;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Conversions between dense {@code double[][]} matrices (row-major, rectangular) and ND4J arrays. */
public final class Matrices {
    private Matrices() {
    }

    /** A c-ordered DOUBLE INDArray holding a copy of the matrix. */
    public static INDArray toNd4j(double[][] matrix) {
        return toNd4j(matrix, DataType.DOUBLE);
    }

    /** A c-ordered INDArray of the given floating-point type holding a copy of the matrix. */
    public static INDArray toNd4j(double[][] matrix, DataType type) {
        int rows = matrix.length;
        if (rows == 0) {
            throw new IllegalArgumentException("matrix has no rows; an ND4J matrix needs at least one");
        }
        int cols = matrix[0].length;
        double[] flat = new double[Math.multiplyExact(rows, cols)];
        for (int r = 0; r < rows; r++) {
            if (matrix[r].length != cols) {
                throw new IllegalArgumentException("matrix is ragged: row " + r + " has " + matrix[r].length
                        + " columns, row 0 has " + cols);
            }
            System.arraycopy(matrix[r], 0, flat, r * cols, cols);
        }
        INDArray out = Nd4j.create(flat, new long[] {rows, cols}, DataType.DOUBLE);
        return type == DataType.DOUBLE ? out : out.castTo(type);
    }

    /** A {@code double[][]} copy of a rank-2 INDArray. */
    public static double[][] fromNd4j(INDArray matrix) {
        if (matrix.rank() != 2) {
            throw new IllegalArgumentException("expected a rank-2 array, got shape " + java.util.Arrays.toString(matrix.shape()));
        }
        return matrix.castTo(DataType.DOUBLE).toDoubleMatrix();
    }

    static double[][] copy(double[][] m) {
        double[][] c = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }
}
