package org.dpdl4j.attacks.matching;

import java.util.Arrays;

/**
 * The vector loops of {@link JavaGradientMatching} on double arrays. Every loop runs over whole arrays from index 0,
 * the shape the JIT compiles to vector instructions (the same loop over offsets into one flat array ran several
 * times slower), which is why the engine keeps matrices as arrays of rows.
 */
final class JavaKernels {
    private JavaKernels() {
    }

    /** y[0..n) += a x[0..n). */
    static void axpy(double[] y, double[] x, double a, int n) {
        if (a == 0) {
            return;
        }
        for (int i = 0; i < n; i++) {
            y[i] += a * x[i];
        }
    }

    /** The dot product of x[0..n) and y[0..n), with four partial sums. */
    static double dot(double[] x, double[] y, int n) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int i = 0;
        for (; i + 3 < n; i += 4) {
            s0 += x[i] * y[i];
            s1 += x[i + 1] * y[i + 1];
            s2 += x[i + 2] * y[i + 2];
            s3 += x[i + 3] * y[i + 3];
        }
        for (; i < n; i++) {
            s0 += x[i] * y[i];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** The sum of x[0..n). */
    static double sum(double[] x, int n) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += x[i];
        }
        return s;
    }

    /** Every element of every row set to 0. */
    static void clear(double[][] rows) {
        for (double[] r : rows) {
            Arrays.fill(r, 0.0);
        }
    }

    /** Copies {@code from} into {@code to} when they hold the same number of values, re-cut into rows of another length. */
    static void reshape(double[][] from, double[][] to) {
        if (from == to) {
            return;
        }
        int r = 0;
        int c = 0;
        for (double[] row : from) {
            for (double v : row) {
                to[r][c++] = v;
                if (c == to[r].length) {
                    r++;
                    c = 0;
                }
            }
        }
    }

    /** Adds {@code from} into {@code to} value by value, re-cut as {@link #reshape}. */
    static void addReshaped(double[][] from, double[][] to) {
        int r = 0;
        int c = 0;
        for (double[] row : from) {
            for (double v : row) {
                to[r][c++] += v;
                if (c == to[r].length) {
                    r++;
                    c = 0;
                }
            }
        }
    }
}
