package org.dpdl4j.privacy.noise;

import java.util.Objects;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Laplace noise built from a {@link NoiseSource}'s standard normals, so it inherits the source's security (secure
 * streams give secret Laplace noise, seeded streams reproducible noise):
 * <ul>
 *   <li>per coordinate: {@code X1 X2 + X3 X4 ~ Laplace(0, 1)} for independent standard normals (each product has
 *       characteristic function {@code (1 + t^2)^(-1/2)}, so their sum has {@code 1 / (1 + t^2)}, Laplace's);</li>
 *   <li>the L2 ("multivariate") Laplace of output perturbation (Chaudhuri et al. 2011), density
 *       {@code ~ exp(-||b||_2 / scale)}: a uniform direction (a normalised normal vector) times a norm of law
 *       {@code Gamma(p, scale) = scale * chi^2_{2p} / 2}.</li>
 * </ul>
 * Like every floating-point sampler these are not hardened against the attacks on the textbook Laplace mechanism's
 * low-order bits (Mironov 2012) beyond what the Gaussian source itself does.
 */
public final class LaplaceNoise {
    private LaplaceNoise() {
    }

    /** Adds independent Laplace(0, scale) noise to every element of {@code target}, in place (scale 0: nothing). */
    public static void add(NoiseSource source, INDArray target, double scale) {
        Objects.requireNonNull(source, "noise source");
        if (!(scale >= 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("the Laplace scale must be finite and >= 0, got " + scale);
        }
        if (scale == 0) {
            return;
        }
        long n = target.length();
        INDArray g = source.gaussian(DataType.DOUBLE, 1.0, 4, n);
        INDArray laplace = g.getRow(0).mul(g.getRow(1)).addi(g.getRow(2).mul(g.getRow(3))).muli(scale);
        target.addi(laplace.reshape(target.shape()).castTo(target.dataType()));
    }

    /** A vector of {@code p} entries with density proportional to {@code exp(-||b||_2 / scale)}. */
    public static INDArray l2Laplace(NoiseSource source, int p, double scale) {
        Objects.requireNonNull(source, "noise source");
        if (p < 1) {
            throw new IllegalArgumentException("the dimension must be >= 1, got " + p);
        }
        if (!(scale >= 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("the scale must be finite and >= 0, got " + scale);
        }
        INDArray direction = source.gaussian(DataType.DOUBLE, 1.0, p);
        double length = direction.norm2Number().doubleValue();
        INDArray chi = source.gaussian(DataType.DOUBLE, 1.0, 2L * p);
        double norm = scale * chi.mul(chi).sumNumber().doubleValue() / 2;
        return length == 0 ? direction : direction.muli(norm / length);
    }
}
