package org.dpdl4j.data.partition;

import java.util.random.RandomGenerator;

/**
 * Gamma(shape, 1) and symmetric Dirichlet draws.
 *
 * <p>Gamma uses Marsaglia and Tsang's squeeze-and-reject method ("A simple method for generating
 * gamma variables", ACM TOMS 26(3), 2000) for shape &ge; 1, and the boost
 * {@code Gamma(a) = Gamma(a + 1) * U^(1/a)} for shape &lt; 1. The boost is applied in log space:
 * for a small shape such as 0.001, {@code U^(1/a)} underflows to 0 in double, which would make a
 * Dirichlet draw 0/0; its logarithm stays finite, so {@link #dirichlet} normalises in log space.
 */
public final class GammaSampler {
    private GammaSampler() {
    }

    /** One draw from Gamma(shape, 1) (mean and variance equal to shape). May underflow to 0 for tiny shapes. */
    public static double sample(double shape, RandomGenerator rng) {
        return Math.exp(sampleLog(shape, rng));
    }

    /** The logarithm of one Gamma(shape, 1) draw; finite even where the draw itself underflows. */
    public static double sampleLog(double shape, RandomGenerator rng) {
        if (!(shape > 0) || Double.isInfinite(shape)) {
            throw new IllegalArgumentException("Gamma shape must be a positive finite number, got " + shape);
        }
        if (shape >= 1) {
            return Math.log(marsagliaTsang(shape, rng));
        }
        double u = 1.0 - rng.nextDouble(); // in (0, 1], so its log is finite
        return Math.log(marsagliaTsang(shape + 1, rng)) + Math.log(u) / shape;
    }

    /**
     * A draw from the symmetric Dirichlet distribution with concentration {@code alpha} over
     * {@code k} categories: k non-negative proportions summing to 1.
     */
    public static double[] dirichlet(double alpha, int k, RandomGenerator rng) {
        if (k < 1) {
            throw new IllegalArgumentException("Dirichlet needs at least one category, got " + k);
        }
        double[] logs = new double[k];
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < k; i++) {
            logs[i] = sampleLog(alpha, rng);
            max = Math.max(max, logs[i]);
        }
        double sum = 0;
        double[] p = new double[k];
        for (int i = 0; i < k; i++) {
            p[i] = Math.exp(logs[i] - max); // the largest is exactly 1, so the sum is at least 1
            sum += p[i];
        }
        for (int i = 0; i < k; i++) {
            p[i] /= sum;
        }
        return p;
    }

    private static double marsagliaTsang(double shape, RandomGenerator rng) {
        double d = shape - 1.0 / 3.0;
        double c = 1.0 / Math.sqrt(9.0 * d);
        while (true) {
            double x;
            double v;
            do {
                x = rng.nextGaussian();
                v = 1.0 + c * x;
            } while (v <= 0);
            v = v * v * v;
            double u = rng.nextDouble();
            double x2 = x * x;
            if (u < 1.0 - 0.0331 * x2 * x2) {
                return d * v;
            }
            if (Math.log(u) < 0.5 * x2 + d * (1.0 - v + Math.log(v))) {
                return d * v;
            }
        }
    }
}
