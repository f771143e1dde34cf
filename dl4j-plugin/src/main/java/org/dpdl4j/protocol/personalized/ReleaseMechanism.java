package org.dpdl4j.protocol.personalized;

import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.LaplaceEvent;
import org.dpdl4j.privacy.noise.LaplaceNoise;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The noise of the private update (6) on an agent's mean local gradient, whose sensitivity is {@code 2 L_0 / m_i}
 * (Lemma 1; the regulariser cancels).
 * <ul>
 *   <li>{@link #LAPLACE} (Theorem 1): the loss is L_0-Lipschitz in L1; scale {@code s = 2 L_0 / (epsilon m_i)} per
 *       coordinate gives a pure epsilon-DP release.</li>
 *   <li>{@link #GAUSSIAN} (Remark 5, with the {@code 1/m_i} the spec restores): the loss is L_0-Lipschitz in L2; std
 *       {@code s = 2 L_0 sqrt(2 ln(2 / delta)) / (epsilon m_i)} gives an (epsilon, delta)-DP release for epsilon < 1,
 *       and the ledger prices it exactly as a Gaussian mechanism (zCDP/RDP).</li>
 * </ul>
 */
public enum ReleaseMechanism {
    LAPLACE("laplace"),
    GAUSSIAN("gaussian");

    private final String cliName;

    ReleaseMechanism(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    public static ReleaseMechanism parse(String name) {
        for (ReleaseMechanism m : values()) {
            if (m.cliName.equalsIgnoreCase(name.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown release mechanism '" + name + "'; use laplace or gaussian");
    }

    /**
     * The noise scale (Laplace scale or Gaussian std) of a release with budget {@code epsilon}.
     *
     * @param lipschitz L_0 in the mechanism's norm
     * @param size      m_i
     * @param delta     the release's delta (Gaussian only)
     */
    public double scale(double epsilon, double delta, double lipschitz, int size) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("a release's epsilon must be positive and finite, got " + epsilon);
        }
        double sensitivity = 2 * lipschitz / size;
        return switch (this) {
            case LAPLACE -> sensitivity / epsilon;
            case GAUSSIAN -> {
                if (epsilon >= 1) {
                    throw new IllegalArgumentException("the Gaussian release's calibration sqrt(2 ln(2/delta)) / epsilon holds for"
                            + " epsilon < 1 only, got " + epsilon + " per release; spread the budget over more releases or use laplace");
                }
                if (!(delta > 0 && delta < 1)) {
                    throw new IllegalArgumentException("a Gaussian release needs a delta in (0, 1), got " + delta);
                }
                yield sensitivity * Math.sqrt(2 * Math.log(2 / delta)) / epsilon;
            }
        };
    }

    /** The ledger's event for a release of this scale: the noise over the per-example bound {@code L_0 / m_i}. */
    public DpEvent event(double scale, double lipschitz, int size) {
        double multiplier = scale * size / lipschitz;
        return this == LAPLACE ? new LaplaceEvent(multiplier) : new GaussianEvent(multiplier);
    }

    /** Adds the noise to {@code target} in place. */
    public void addNoise(NoiseSource source, INDArray target, double scale) {
        if (this == LAPLACE) {
            LaplaceNoise.add(source, target, scale);
        } else {
            source.addGaussian(target, scale);
        }
    }

    /** The variance per coordinate of noise of this scale: {@code 2 s^2} (Laplace) or {@code s^2}. */
    public double variance(double scale) {
        return this == LAPLACE ? 2 * scale * scale : scale * scale;
    }
}
