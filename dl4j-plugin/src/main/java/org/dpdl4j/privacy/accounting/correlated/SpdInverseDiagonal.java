package org.dpdl4j.privacy.accounting.correlated;

/** Cholesky factorisation and the diagonal of the inverse of small dense SPD matrices, in double. */
final class SpdInverseDiagonal {
    private SpdInverseDiagonal() {
    }

    /**
     * Overwrites the lower triangle of {@code a} with its Cholesky factor L ({@code a = L L^T}).
     *
     * @return false if a pivot is not positive (a is not numerically positive definite)
     */
    static boolean choleskyInPlace(double[][] a) {
        int n = a.length;
        for (int j = 0; j < n; j++) {
            double[] aj = a[j];
            double d = aj[j];
            for (int k = 0; k < j; k++) {
                d -= aj[k] * aj[k];
            }
            if (!(d > 0)) {
                return false;
            }
            double ljj = Math.sqrt(d);
            aj[j] = ljj;
            for (int i = j + 1; i < n; i++) {
                double[] ai = a[i];
                double s = ai[j];
                for (int k = 0; k < j; k++) {
                    s -= ai[k] * aj[k];
                }
                ai[j] = s / ljj;
            }
        }
        return true;
    }

    /**
     * Diagonal of {@code A^-1} for SPD A: with {@code A = L L^T}, {@code (A^-1)_ii = ||L^-1 e_i||^2}.
     * A is overwritten.
     */
    static double[] diagonalOfInverse(double[][] a) {
        int n = a.length;
        if (!choleskyInPlace(a)) {
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
