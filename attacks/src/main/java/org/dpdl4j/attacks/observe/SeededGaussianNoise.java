package org.dpdl4j.attacks.observe;

import java.util.SplittableRandom;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Reproducible Gaussian noise for simulated releases (Box-Muller on a seeded {@link SplittableRandom}). Meant
 * for attack experiments only: it is not a secure noise source for differential privacy.
 */
final class SeededGaussianNoise {
    private SeededGaussianNoise() {
    }

    /** A row vector of {@code length} draws of {@code N(0, std^2)}; zeros when {@code std == 0}. */
    static INDArray row(long length, double std, long seed, DataType dataType) {
        double[] values = new double[Math.toIntExact(length)];
        if (std > 0) {
            SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < values.length; i += 2) {
                double u1 = 1.0 - random.nextDouble();
                double u2 = random.nextDouble();
                double radius = Math.sqrt(-2 * Math.log(u1)) * std;
                values[i] = radius * Math.cos(2 * Math.PI * u2);
                if (i + 1 < values.length) {
                    values[i + 1] = radius * Math.sin(2 * Math.PI * u2);
                }
            }
        }
        return Nd4j.createFromArray(values).reshape(1, values.length).castTo(dataType);
    }
}
