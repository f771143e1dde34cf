package org.dpdl4j.data.synthetic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpdl4j.data.RandomStreams;
import org.dpdl4j.data.RegressionData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The synthetic least-squares workload of Decor (ALGORITHMS.md section 3.7): user i (0-based) of n
 * holds {@code A_i = ((i+1)/sqrt(n)) I_d} and {@code b_i ~ N(0, I_d / (i+1)^2)} and the objective
 * {@code f_i(x) = 1/2 ||A_i x - b_i||^2}.
 *
 * <p>Each user's data is a {@link RegressionData} in DOUBLE whose d feature rows are the rows of
 * {@code A_i} and whose targets are the entries of {@code b_i}, so the user's least-squares loss
 * over its rows is exactly {@code f_i}. The optimum of the sum,
 * {@code x* = (sum_i A_i^T A_i)^-1 sum_i A_i^T b_i}, is solved once (Cholesky, in double) from the
 * stored matrices, not from the closed form of the diagonal case, so it stays right for any A_i.
 */
public final class DecorLeastSquares {
    /** Users in the paper's experiments. */
    public static final int DEFAULT_USERS = 16;
    /** Dimension in the paper's experiments. */
    public static final int DEFAULT_DIM = 10;

    private final List<RegressionData> users;
    private final double[][][] a;
    private final double[][] b;
    private final double[] optimum;

    private DecorLeastSquares(double[][][] a, double[][] b) {
        this.a = a;
        this.b = b;
        List<RegressionData> list = new ArrayList<>(a.length);
        for (int i = 0; i < a.length; i++) {
            INDArray features = Nd4j.createFromArray(a[i]);
            INDArray targets = Nd4j.createFromArray(b[i]).reshape(b[i].length, 1);
            list.add(new RegressionData("decor-least-squares/user" + i, features, targets));
        }
        this.users = List.copyOf(list);
        this.optimum = solveOptimum(a, b);
    }

    /** The paper's instance: 16 users, d = 10. */
    public static DecorLeastSquares generate(long seed) {
        return generate(DEFAULT_USERS, DEFAULT_DIM, seed);
    }

    /** An instance with n users in dimension d; the same seed gives the same b_i. */
    public static DecorLeastSquares generate(int users, int dim, long seed) {
        if (users < 1) {
            throw new IllegalArgumentException("the number of users must be at least 1, got " + users);
        }
        if (dim < 1) {
            throw new IllegalArgumentException("the dimension must be at least 1, got " + dim);
        }
        double[][][] a = new double[users][dim][dim];
        double[][] b = new double[users][dim];
        for (int i = 0; i < users; i++) {
            double scale = (i + 1) / Math.sqrt(users);
            SplittableRandom rng = RandomStreams.stream(seed, "decor-least-squares-b", i);
            for (int j = 0; j < dim; j++) {
                a[i][j][j] = scale;
                b[i][j] = rng.nextGaussian() / (i + 1);
            }
        }
        return new DecorLeastSquares(a, b);
    }

    /** The number of users n. */
    public int users() {
        return a.length;
    }

    /** The dimension d. */
    public int dim() {
        return b[0].length;
    }

    /** The data of every user. */
    public List<RegressionData> userData() {
        return users;
    }

    /** The data of user i: features = rows of A_i, targets = b_i. */
    public RegressionData user(int i) {
        return users.get(i);
    }

    /** A copy of A_i. */
    public double[][] a(int i) {
        double[][] copy = new double[dim()][];
        for (int r = 0; r < copy.length; r++) {
            copy[r] = a[i][r].clone();
        }
        return copy;
    }

    /** A copy of b_i. */
    public double[] b(int i) {
        return b[i].clone();
    }

    /** A copy of the exact optimum x* of {@code sum_i f_i}. */
    public double[] optimum() {
        return optimum.clone();
    }

    /** {@code f_i(x) = 1/2 ||A_i x - b_i||^2}. */
    public double objective(int i, double[] x) {
        double[] r = residual(i, x);
        double s = 0;
        for (double v : r) {
            s += v * v;
        }
        return 0.5 * s;
    }

    /** {@code grad f_i(x) = A_i^T (A_i x - b_i)}. */
    public double[] gradient(int i, double[] x) {
        double[] r = residual(i, x);
        int d = dim();
        double[] g = new double[d];
        for (int row = 0; row < d; row++) {
            for (int col = 0; col < d; col++) {
                g[col] += a[i][row][col] * r[row];
            }
        }
        return g;
    }

    /** The optimality gap {@code (1/n) sum_i ||x_i - x*||^2} of one model per user (rows of an n x d matrix). */
    public double optimalityGap(double[][] models) {
        if (models.length != users()) {
            throw new IllegalArgumentException("expected one model per user (" + users() + "), got " + models.length);
        }
        double sum = 0;
        for (int i = 0; i < models.length; i++) {
            if (models[i].length != dim()) {
                throw new IllegalArgumentException("model " + i + " has " + models[i].length + " entries, expected " + dim());
            }
            for (int j = 0; j < dim(); j++) {
                double diff = models[i][j] - optimum[j];
                sum += diff * diff;
            }
        }
        return sum / models.length;
    }

    /** The optimality gap of the rows of an n x d ND4J matrix of models. */
    public double optimalityGap(INDArray models) {
        if (models.rank() != 2) {
            throw new IllegalArgumentException("the models must be a matrix with one row per user, got rank "
                    + models.rank());
        }
        return optimalityGap(models.castTo(DataType.DOUBLE).toDoubleMatrix());
    }

    private double[] residual(int i, double[] x) {
        int d = dim();
        if (x.length != d) {
            throw new IllegalArgumentException("the point has " + x.length + " entries, expected the dimension " + d);
        }
        double[] r = new double[d];
        for (int row = 0; row < d; row++) {
            double s = -b[i][row];
            for (int col = 0; col < d; col++) {
                s += a[i][row][col] * x[col];
            }
            r[row] = s;
        }
        return r;
    }

    /** Solves the normal equations {@code (sum A_i^T A_i) x = sum A_i^T b_i} by Cholesky. */
    private static double[] solveOptimum(double[][][] a, double[][] b) {
        int d = b[0].length;
        double[][] m = new double[d][d];
        double[] v = new double[d];
        for (int i = 0; i < a.length; i++) {
            for (int r = 0; r < d; r++) {
                for (int p = 0; p < d; p++) {
                    double arp = a[i][r][p];
                    if (arp == 0) {
                        continue;
                    }
                    v[p] += arp * b[i][r];
                    for (int q = 0; q < d; q++) {
                        m[p][q] += arp * a[i][r][q];
                    }
                }
            }
        }
        return Cholesky.solve(m, v);
    }
}
