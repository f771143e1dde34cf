package org.dpdl4j.privacy.accounting.correlated;

import org.dpdl4j.linalg.SpdSystems;

/** The diagonal of the inverse of small dense SPD matrices, in double (by their Cholesky factor). */
final class SpdInverseDiagonal {
    private SpdInverseDiagonal() {
    }

    /**
     * Diagonal of {@code A^-1} for SPD A: with {@code A = L L^T}, {@code (A^-1)_ii = ||L^-1 e_i||^2}.
     * A is overwritten.
     */
    static double[] diagonalOfInverse(double[][] a) {
        int n = a.length;
        if (!SpdSystems.choleskyInPlace(a)) {
            throw new IllegalStateException("covariance matrix is not numerically positive definite");
        }
        // Columns of L^-1: solve L x = e_i by forward substitution (x_k = 0 for k < i).
        double[] diag = new double[n];
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            double norm = 0;
            for (int r = i; r < n; r++) {
                double s = r == i ? 1.0 : 0.0;
                double[] lr = a[r];
                for (int k = i; k < r; k++) {
                    s -= lr[k] * x[k];
                }
                x[r] = s / lr[r];
                norm += x[r] * x[r];
            }
            diag[i] = norm;
        }
        return diag;
    }
}
