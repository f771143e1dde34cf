package org.dpdl4j.optim;

import java.util.Arrays;

/**
 * The small dense products of {@link HostDenseGradients}, in plain Java on float arrays. A matrix over the batch is
 * held as columns ({@code float[n][capacity]}, one array per unit, example i at index i) or as rows
 * ({@code float[capacity][n]}); only the first b entries of a column (or rows) are used.
 *
 * <p>Every inner loop runs over whole arrays from index 0 ({@code y[i] += a * x[i]}): the JIT compiles that shape to
 * vector instructions, while the same loop over offsets into one flat array measured 4 to 7 times slower. Sums that
 * the JIT cannot vectorize (dot products) use eight independent accumulators.
 */
final class ColumnKernels {
    private ColumnKernels() {
    }

    /** y[0..n) += a * x[0..n). */
    static void axpy(float[] y, float[] x, float a, int n) {
        for (int i = 0; i < n; i++) {
            y[i] += a * x[i];
        }
    }

    /** The dot product of x[0..n) and y[0..n). */
    static float dot(float[] x, float[] y, int n) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        float s4 = 0;
        float s5 = 0;
        float s6 = 0;
        float s7 = 0;
        int i = 0;
        for (; i + 7 < n; i += 8) {
            s0 += x[i] * y[i];
            s1 += x[i + 1] * y[i + 1];
            s2 += x[i + 2] * y[i + 2];
            s3 += x[i + 3] * y[i + 3];
            s4 += x[i + 4] * y[i + 4];
            s5 += x[i + 5] * y[i + 5];
            s6 += x[i + 6] * y[i + 6];
            s7 += x[i + 7] * y[i + 7];
        }
        for (; i < n; i++) {
            s0 += x[i] * y[i];
        }
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    }

    /** The sum of x[0..n). */
    static float sum(float[] x, int n) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        for (; i + 3 < n; i += 4) {
            s0 += x[i];
            s1 += x[i + 1];
            s2 += x[i + 2];
            s3 += x[i + 3];
        }
        for (; i < n; i++) {
            s0 += x[i];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /**
     * out = in · W for a batch held as columns: out[k][i] = sum_j in[j][i] W[j][k], with W given by its columns
     * ({@code w[k][j]}, as DL4J stores it).
     */
    static void columnsTimesWeights(float[][] in, int nIn, float[][] w, float[][] out, int nOut, int b) {
        for (int k = 0; k < nOut; k++) {
            float[] o = out[k];
            float[] wk = w[k];
            Arrays.fill(o, 0, b, 0f);
            for (int j = 0; j < nIn; j++) {
                axpy(o, in[j], wk[j], b);
            }
        }
    }

    /** out = in · W for a batch held as rows: out[k][i] = (row i) · (column k of W). */
    static void rowsTimesWeights(float[][] rows, int nIn, float[][] w, float[][] out, int nOut, int b) {
        for (int k = 0; k < nOut; k++) {
            float[] o = out[k];
            float[] wk = w[k];
            for (int i = 0; i < b; i++) {
                o[i] = dot(rows[i], wk, nIn);
            }
        }
    }

    /** e = d · W^T for columns: e[j][i] = sum_k d[k][i] W[j][k] (the error at a layer's input). */
    static void columnsTimesWeightsTransposed(float[][] d, int nOut, float[][] w, float[][] e, int nIn, int b) {
        for (int j = 0; j < nIn; j++) {
            float[] ej = e[j];
            Arrays.fill(ej, 0, b, 0f);
            for (int k = 0; k < nOut; k++) {
                axpy(ej, d[k], w[k][j], b);
            }
        }
    }

    /** Column k of a weight gradient: g[j] = sum_i rows[i][j] d[i], for a layer whose input is held as rows. */
    static void weightGradientColumn(float[][] rows, int nIn, float[] d, int b, float[] g) {
        Arrays.fill(g, 0, nIn, 0f);
        for (int i = 0; i < b; i++) {
            float di = d[i];
            if (di != 0f) {
                axpy(g, rows[i], di, nIn);
            }
        }
    }

    /** rows[i][j] = columns[j][i] for the first b examples. */
    static void columnsToRows(float[][] columns, int n, int b, float[][] rows) {
        for (int j = 0; j < n; j++) {
            float[] c = columns[j];
            for (int i = 0; i < b; i++) {
                rows[i][j] = c[i];
            }
        }
    }

    /** acc[i] += sum_j columns[j][i]^2: each example's squared norm over n units, added to acc. */
    static void addSquaredNorms(float[][] columns, int n, int b, float[] acc) {
        for (int j = 0; j < n; j++) {
            float[] c = columns[j];
            for (int i = 0; i < b; i++) {
                acc[i] += c[i] * c[i];
            }
        }
    }

    /** columns[j][i] *= factors[i]: each example's row scaled by its own factor. */
    static void scaleRows(float[][] columns, int n, int b, float[] factors) {
        for (int j = 0; j < n; j++) {
            float[] c = columns[j];
            for (int i = 0; i < b; i++) {
                c[i] *= factors[i];
            }
        }
    }

    /** A float[rows][cols] at least as large as asked, reusing {@code old} when it is. */
    static float[][] atLeast(float[][] old, int rows, int cols) {
        if (old != null && old.length >= rows && (rows == 0 || old[0].length >= cols)) {
            return old;
        }
        return new float[rows][Math.max(cols, 1)];
    }

    /** A float[n] at least as large as asked, reusing {@code old} when it is. */
    static float[] atLeast(float[] old, int n) {
        return old != null && old.length >= n ? old : new float[n];
    }
}
