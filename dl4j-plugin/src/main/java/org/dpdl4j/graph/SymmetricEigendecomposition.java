package org.dpdl4j.graph;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.eigen.Eigen;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Eigen-decomposition {@code A = Q diag(lambda) Q^T} of a real symmetric matrix, eigenvalues in
 * ascending order and orthonormal eigenvectors as the columns of Q.
 *
 * <p>Computed in double precision by LAPACK's symmetric solver through ND4J
 * ({@link Eigen#symmetricGeneralizedEigenvalues(INDArray, boolean)}); for n = 1000 that takes about
 * a second on one core. Instances are immutable: accessors return copies.
 */
public final class SymmetricEigendecomposition {
    /** Largest asymmetry |A_ij - A_ji| accepted, relative to the largest entry. */
    public static final double SYMMETRY_TOLERANCE = 1e-12;

    private final int n;
    private final double[] values;
    /** Row-major Q: entry (i, k) is component i of eigenvector k. */
    private final double[] vectors;

    private SymmetricEigendecomposition(int n, double[] values, double[] vectors) {
        this.n = n;
        this.values = values;
        this.vectors = vectors;
    }

    /** Decomposes a symmetric matrix; throws if it is not square or not symmetric. */
    public static SymmetricEigendecomposition of(double[][] symmetric) {
        int n = symmetric.length;
        if (n == 0) {
            throw new IllegalArgumentException("cannot decompose an empty matrix");
        }
        double scale = 0;
        for (int i = 0; i < n; i++) {
            if (symmetric[i].length != n) {
                throw new IllegalArgumentException("matrix is not square: row " + i + " has " + symmetric[i].length
                        + " entries, expected " + n);
            }
            for (double v : symmetric[i]) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("matrix row " + i + " holds a non-finite value " + v);
                }
                scale = Math.max(scale, Math.abs(v));
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (Math.abs(symmetric[i][j] - symmetric[j][i]) > SYMMETRY_TOLERANCE * Math.max(scale, 1e-300)) {
                    throw new IllegalArgumentException("matrix is not symmetric: entry (" + i + ", " + j + ") = " + symmetric[i][j]
                            + " but (" + j + ", " + i + ") = " + symmetric[j][i]);
                }
            }
        }
        INDArray a = Matrices.toNd4j(symmetric, DataType.DOUBLE);
        // LAPACK syev overwrites its argument with the eigenvectors (as columns).
        INDArray lambda = Eigen.symmetricGeneralizedEigenvalues(a, true);
        double[] values = lambda.castTo(DataType.DOUBLE).toDoubleVector();
        double[] vectors = a.dup('c').data().asDouble();
        return new SymmetricEigendecomposition(n, values, vectors);
    }

    /** Builds a decomposition from known eigenpairs (used to replace numerically computed null spaces). */
    static SymmetricEigendecomposition fromParts(double[] values, double[] rowMajorVectors) {
        return new SymmetricEigendecomposition(values.length, values, rowMajorVectors);
    }

    /** Order of the matrix. */
    public int size() {
        return n;
    }

    /** Eigenvalues, ascending. */
    public double[] eigenvalues() {
        return values.clone();
    }

    /** The k-th smallest eigenvalue (k from 0). */
    public double eigenvalue(int k) {
        return values[k];
    }

    /** Component i of the unit eigenvector of {@link #eigenvalue(int) eigenvalue(k)}. */
    public double eigenvectorEntry(int i, int k) {
        return vectors[i * n + k];
    }

    /** Q as a dense matrix; column k is the eigenvector of eigenvalue k. */
    public double[][] eigenvectors() {
        double[][] q = new double[n][n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(vectors, i * n, q[i], 0, n);
        }
        return q;
    }

    /** Q in row-major order (entry (i, k) at {@code i * n + k}); a copy. */
    public double[] eigenvectorsRowMajor() {
        return vectors.clone();
    }

    /** Q as a DOUBLE INDArray (a copy). */
    public INDArray eigenvectorArray() {
        return Nd4j.create(vectors.clone(), new long[] {n, n}, DataType.DOUBLE);
    }
}
