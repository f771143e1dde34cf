package org.dpdl4j.linalg;

/**
 * Small dense symmetric positive definite systems in double, by Cholesky ({@code A = L L^T}) in plain Java: the
 * matrices here are at most a few hundred wide, and ND4J's Cholesky op refuses some well-conditioned double inputs.
 */
public final class SpdSystems {
    private SpdSystems() {
    }

    /**
     * Overwrites the lower triangle of {@code a} with its Cholesky factor L ({@code a = L L^T}); only the lower
     * triangle of {@code a} is read.
     *
     * @return false if a pivot is not positive (a is not numerically positive definite)
     */
    public static boolean choleskyInPlace(double[][] a) {
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
     * The solution of {@code a x = v}, or null when a is not numerically positive definite. Only the lower triangle of
     * {@code a} is read; {@code a} is not changed.
     */
    public static double[] solve(double[][] a, double[] v) {
        int n = a.length;
        if (v.length != n) {
            throw new IllegalArgumentException("a " + n + " x " + n + " system needs a right-hand side of " + n + ", got " + v.length);
        }
        double[][] l = new double[n][];
        for (int i = 0; i < n; i++) {
            l[i] = a[i].clone();
        }
        if (!choleskyInPlace(l)) {
            return null;
        }
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {            // L y = v
            double s = v[i];
            for (int k = 0; k < i; k++) {
                s -= l[i][k] * y[k];
            }
            y[i] = s / l[i][i];
        }
        double[] x = new double[n];
        for (int i = n - 1; i >= 0; i--) {       // L^T x = y
            double s = y[i];
            for (int k = i + 1; k < n; k++) {
                s -= l[k][i] * x[k];
            }
            x[i] = s / l[i][i];
        }
        return x;
    }
}
