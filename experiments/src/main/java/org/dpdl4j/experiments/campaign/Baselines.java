package org.dpdl4j.experiments.campaign;

import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Information-free baselines that set the failure threshold: what an attacker achieves without any signal of the
 * image, either by running its attack on an observation that holds only noise of the release's scale, or by
 * offering the mean training image (the best blind guess in squared error) as every reconstruction.
 */
final class Baselines {
    private Baselines() {
    }

    /** The per-pixel mean of the training images. */
    static double[] meanImage(LabeledData train) {
        return train.features().castTo(DataType.DOUBLE).mean(0).toDoubleVector();
    }

    /**
     * The same release with its observation replaced by pure Gaussian noise of its own per-coordinate std: same
     * model, scale, noise level and ground truth, no gradient of the image in it.
     *
     * @throws IllegalArgumentException for a noise-free case (nothing to imitate)
     */
    static AttackCase noiseOnly(AttackCase c, long seed, long index) {
        if (!(c.noiseStd() > 0)) {
            throw new IllegalArgumentException("a noise-only baseline needs a noisy release; this case has no noise");
        }
        INDArray noise = SeededNoiseSource.forKey(new NoiseKey(seed, "noise-only-baseline", index, 0))
                .gaussian(c.observed().dataType(), c.noiseStd(), 1, c.observed().length());
        return new AttackCase(c.model(), noise, c.scale(), c.noiseStd(), c.batchSize(), c.truth(),
                c.provenance().with("baseline", "noise only"));
    }
}
