package org.dpdl4j.data.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GammaSamplerTest {

    @Test
    void meanAndVarianceEqualTheShape() {
        int n = 200_000;
        for (double shape : new double[] {0.1, 0.5, 1, 2.5, 10}) {
            SplittableRandom rng = new SplittableRandom(42);
            double sum = 0;
            double sumSq = 0;
            for (int i = 0; i < n; i++) {
                double g = GammaSampler.sample(shape, rng);
                assertTrue(g >= 0);
                sum += g;
                sumSq += g * g;
            }
            double mean = sum / n;
            double variance = sumSq / n - mean * mean;
            // standard error of the mean: sqrt(shape / n); of the variance: sqrt((2 shape^2 + 6 shape) / n)
            assertEquals(shape, mean, 5 * Math.sqrt(shape / n), "mean for shape " + shape);
            assertEquals(shape, variance, 5 * Math.sqrt((2 * shape * shape + 6 * shape) / n), "variance for shape " + shape);
        }
    }

    @Test
    void logOfTinyShapesStaysFinite() {
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < 1000; i++) {
            double l = GammaSampler.sampleLog(1e-3, rng);
            assertTrue(Double.isFinite(l), "log draw " + l);
        }
    }

    @Test
    void dirichletSumsToOneEvenForTinyAlpha() {
        SplittableRandom rng = new SplittableRandom(3);
        for (double alpha : new double[] {1e-3, 0.1, 1, 100}) {
            double[] p = GammaSampler.dirichlet(alpha, 20, rng);
            double s = 0;
            for (double v : p) {
                assertTrue(v >= 0 && v <= 1);
                s += v;
            }
            assertEquals(1.0, s, 1e-12);
        }
    }

    @Test
    void dirichletMarginalsHaveTheBetaMean() {
        // Symmetric Dirichlet(alpha) over k: each proportion has mean 1/k and variance (k-1)/(k^2 (k alpha + 1)).
        int k = 4;
        double alpha = 0.5;
        int n = 50_000;
        SplittableRandom rng = new SplittableRandom(8);
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < n; i++) {
            double p0 = GammaSampler.dirichlet(alpha, k, rng)[0];
            sum += p0;
            sumSq += p0 * p0;
        }
        double mean = sum / n;
        double variance = sumSq / n - mean * mean;
        double expectedVariance = (k - 1.0) / (k * k * (k * alpha + 1));
        assertEquals(1.0 / k, mean, 5 * Math.sqrt(expectedVariance / n));
        assertEquals(expectedVariance, variance, 0.03 * expectedVariance);
    }

    @Test
    void rejectsInvalidShapes() {
        SplittableRandom rng = new SplittableRandom(1);
        assertThrows(IllegalArgumentException.class, () -> GammaSampler.sample(0, rng));
        assertThrows(IllegalArgumentException.class, () -> GammaSampler.sample(-1, rng));
        assertThrows(IllegalArgumentException.class, () -> GammaSampler.sample(Double.NaN, rng));
        assertThrows(IllegalArgumentException.class, () -> GammaSampler.dirichlet(1, 0, rng));
    }
}
