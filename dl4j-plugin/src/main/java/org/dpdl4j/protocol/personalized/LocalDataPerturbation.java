package org.dpdl4j.protocol.personalized;

import java.util.Locale;
import java.util.Objects;
import org.dpdl4j.privacy.noise.LaplaceNoise;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * Local differential privacy on the data itself (the baseline of Bellet et al.'s Figure 4): every record is released
 * once with pure {@code epsilon}-DP, after which anything may be learned from it. The budget is split in two halves:
 * <ul>
 *   <li>the features, bounded by {@code ||x||_1 <= 1} (so two records differ by at most 2 in L1), get Laplace noise of
 *       scale {@code 2 / (epsilon / 2)} per coordinate;</li>
 *   <li>the label is kept with probability {@code e^(epsilon/2) / (1 + e^(epsilon/2))} and flipped otherwise
 *       (randomized response).</li>
 * </ul>
 * The two releases compose to {@code epsilon} per record.
 */
public final class LocalDataPerturbation {
    private LocalDataPerturbation() {
    }

    /** The Laplace scale on every feature coordinate. */
    public static double featureScale(double epsilon) {
        requireEpsilon(epsilon);
        return 2 / (epsilon / 2);
    }

    /** The probability that randomized response flips a label. */
    public static double flipProbability(double epsilon) {
        requireEpsilon(epsilon);
        return 1 / (1 + Math.exp(epsilon / 2));
    }

    /**
     * The agent's records released with {@code epsilon}-local DP each.
     *
     * @throws IllegalArgumentException if a feature row has L1 norm above 1 (the noise would be too small for it)
     */
    public static AgentData perturb(AgentData data, double epsilon, NoiseSource source) {
        Objects.requireNonNull(source, "noise source");
        double flip = flipProbability(epsilon);
        if (data.maxL1Norm() > 1 + 1e-9) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "local DP on the data assumes feature rows of L1 norm <= 1;"
                    + " this agent has one of %.6g: scale the features first", data.maxL1Norm()));
        }
        INDArray features = data.features().dup();
        LaplaceNoise.add(source, features, featureScale(epsilon));
        // exp(-(Z1^2 + Z2^2) / 2) is uniform on (0, 1) for independent standard normals (chi^2_2 / 2 ~ Exp(1)).
        INDArray z = source.gaussian(DataType.DOUBLE, 1.0, 2, data.size());
        INDArray uniform = Transforms.exp(z.mul(z).sum(0).muli(-0.5), false);
        INDArray sign = uniform.lt(flip).castTo(DataType.DOUBLE).muli(-2).addi(1);
        return new AgentData(features, data.labels().mul(sign.reshape(data.size())));
    }

    private static void requireEpsilon(double epsilon) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("local DP needs a positive, finite epsilon per record, got " + epsilon);
        }
    }
}
