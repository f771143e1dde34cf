package org.dpdl4j.data.synthetic;

/** Solves small symmetric positive definite systems in double precision. */
final class Cholesky {
    private Cholesky() {
    }

    /** The solution x of {@code m x = v} for a symmetric positive definite m. */
    static double[] solve(double[][] m, double[] v) {
        int d = v.length;
        double[][] l = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                double s = m[i][j];
                for (int k = 0; k < j; k++) {
                    s -= l[i][k] * l[j][k];
                }
                if (i == j) {
                    if (!(s > 0)) {
                        throw new IllegalArgumentException("the normal-equation matrix is not positive definite "
                                + "(pivot " + i + " is " + s + "); the least-squares optimum is not unique");
                    }
                    l[i][i] = Math.sqrt(s);
                } else {
                    l[i][j] = s / l[j][j];
                }
            }
        }
        double[] y = new double[d];
        for (int i = 0; i < d; i++) {
            double s = v[i];
            for (int k = 0; k < i; k++) {
                s -= l[i][k] * y[k];
            }
            y[i] = s / l[i][i];
        }
        double[] x = new double[d];
        for (int i = d - 1; i >= 0; i--) {
            double s = y[i];
            for (int k = i + 1; k < d; k++) {
                s -= l[k][i] * x[k];
            }
            x[i] = s / l[i][i];
        }
        return x;
    }
}
