package org.dpdl4j.models;

import java.util.Random;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

/** Small separable data sets, generated in double precision from a fixed seed. */
final class TinyProblems {
    private TinyProblems() {
    }

    /** Two features, label 1 when {@code x0 + x1 > 0}; labels are one column. */
    static DataSet binary(int n, long seed) {
        Random random = new Random(seed);
        double[][] x = new double[n][2];
        double[][] y = new double[n][1];
        for (int i = 0; i < n; i++) {
            x[i][0] = random.nextGaussian();
            x[i][1] = random.nextGaussian();
            y[i][0] = x[i][0] + x[i][1] > 0 ? 1 : 0;
        }
        return dataSet(x, y);
    }

    /** Three well separated Gaussian clusters in the plane, one-hot labels. */
    static DataSet clusters(int n, long seed) {
        double[][] centres = {{2, 0}, {-1, 1.7}, {-1, -1.7}};
        Random random = new Random(seed);
        double[][] x = new double[n][2];
        double[][] y = new double[n][3];
        for (int i = 0; i < n; i++) {
            int c = i % 3;
            x[i][0] = centres[c][0] + 0.4 * random.nextGaussian();
            x[i][1] = centres[c][1] + 0.4 * random.nextGaussian();
            y[i][c] = 1;
        }
        return dataSet(x, y);
    }

    /** {@code y = A x + b + noise} with 4 features and 3 outputs. */
    static DataSet linear(int n, long seed) {
        Random random = new Random(seed);
        double[][] a = {{1, -2, 0.5, 0}, {0, 1, 1, -1}, {2, 0, 0, 1}};
        double[] b = {0.5, -1, 0};
        double[][] x = new double[n][4];
        double[][] y = new double[n][3];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 4; j++) {
                x[i][j] = random.nextGaussian();
            }
            for (int k = 0; k < 3; k++) {
                double value = b[k] + 0.01 * random.nextGaussian();
                for (int j = 0; j < 4; j++) {
                    value += a[k][j] * x[i][j];
                }
                y[i][k] = value;
            }
        }
        return dataSet(x, y);
    }

    /** Flattened 1x8x8 images: class 0 has a bright left half, class 1 a bright right half. */
    static DataSet halves(int n, long seed) {
        Random random = new Random(seed);
        double[][] x = new double[n][64];
        double[][] y = new double[n][2];
        for (int i = 0; i < n; i++) {
            int c = i % 2;
            for (int row = 0; row < 8; row++) {
                for (int col = 0; col < 8; col++) {
                    boolean bright = (col < 4) == (c == 0);
                    x[i][row * 8 + col] = (bright ? 0.8 : 0.2) + 0.1 * random.nextGaussian();
                }
            }
            y[i][c] = 1;
        }
        return dataSet(x, y);
    }

    private static DataSet dataSet(double[][] x, double[][] y) {
        return new DataSet(Nd4j.createFromArray(x).castTo(DataType.DOUBLE), Nd4j.createFromArray(y).castTo(DataType.DOUBLE));
    }
}
