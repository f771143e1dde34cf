package org.dpdl4j.data.synthetic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.dpdl4j.data.RegressionData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

class DecorLeastSquaresTest {

    @Test
    void optimumSatisfiesTheNormalEquations() {
        DecorLeastSquares p = DecorLeastSquares.generate(11);
        int n = p.users();
        int d = p.dim();
        assertEquals(16, n);
        assertEquals(10, d);
        double[] x = p.optimum();
        // sum_i A_i^T (A_i x - b_i) = 0, i.e. the gradient of the total objective vanishes.
        double[] total = new double[d];
        for (int i = 0; i < n; i++) {
            double[] g = p.gradient(i, x);
            for (int j = 0; j < d; j++) {
                total[j] += g[j];
            }
        }
        for (double g : total) {
            assertEquals(0.0, g, 1e-10);
        }
        // Closed form of the diagonal instance: x* = sum_i s_i b_i / sum_i s_i^2 with s_i = (i+1)/sqrt(n).
        for (int j = 0; j < d; j++) {
            double num = 0;
            double den = 0;
            for (int i = 0; i < n; i++) {
                double s = (i + 1) / Math.sqrt(n);
                num += s * p.b(i)[j];
                den += s * s;
            }
            assertEquals(num / den, x[j], 1e-12);
        }
    }

    @Test
    void userDataEncodesTheObjective() {
        DecorLeastSquares p = DecorLeastSquares.generate(4, 3, 2);
        RegressionData u2 = p.user(2);
        assertEquals(3, u2.size());
        assertEquals(3, u2.numFeatures());
        assertEquals(1, u2.numTargets());
        assertEquals(DataType.DOUBLE, u2.features().dataType());
        double s = 3 / Math.sqrt(4);
        assertArrayEquals(new double[][] {{s, 0, 0}, {0, s, 0}, {0, 0, s}}, u2.features().toDoubleMatrix());
        assertArrayEquals(p.b(2), u2.targets().reshape(3).toDoubleVector(), 0);
        double[] x = {0.3, -1, 2};
        double expected = 0;
        for (int j = 0; j < 3; j++) {
            double r = s * x[j] - p.b(2)[j];
            expected += 0.5 * r * r;
        }
        assertEquals(expected, p.objective(2, x), 1e-15);
        assertEquals("decor-least-squares/user2", u2.name());
    }

    @Test
    void noiseShrinksWithTheUserIndex() {
        int seeds = 1000;
        double[] ss = new double[4];
        for (int seed = 0; seed < seeds; seed++) {
            DecorLeastSquares p = DecorLeastSquares.generate(4, 10, seed);
            for (int i = 0; i < 4; i++) {
                for (double v : p.b(i)) {
                    ss[i] += v * v;
                }
            }
        }
        for (int i = 0; i < 4; i++) {
            double variance = ss[i] / (seeds * 10);
            double expected = 1.0 / ((i + 1) * (i + 1));
            // mean of 10000 squared normals: relative standard error sqrt(2/10000) = 1.4%; allow 4 of them
            assertEquals(expected, variance, 0.057 * expected, "user " + i);
        }
    }

    @Test
    void deterministicForASeed() {
        assertArrayEquals(DecorLeastSquares.generate(3).optimum(), DecorLeastSquares.generate(3).optimum(), 0);
        assertFalse(Arrays.equals(DecorLeastSquares.generate(3).optimum(), DecorLeastSquares.generate(4).optimum()));
    }

    @Test
    void optimalityGap() {
        DecorLeastSquares p = DecorLeastSquares.generate(3, 2, 1);
        double[] x = p.optimum();
        double[][] models = {{x[0], x[1]}, {x[0] + 1, x[1]}, {x[0], x[1] - 2}};
        assertEquals((0 + 1 + 4) / 3.0, p.optimalityGap(models), 1e-15);
        assertEquals((0 + 1 + 4) / 3.0, p.optimalityGap(Nd4j.createFromArray(models)), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> p.optimalityGap(new double[2][2]));
        assertThrows(IllegalArgumentException.class, () -> DecorLeastSquares.generate(0, 2, 1));
    }
}
