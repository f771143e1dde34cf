package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.random.impl.GaussianDistribution;
import org.nd4j.linalg.api.rng.Random;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Fast, reproducible Gaussian noise from ND4J's native seeded generator, keyed by a {@link NoiseKey}.
 * <b>Not secure</b>: anyone who knows the seed can subtract the noise, so a "private" run with this
 * source protects nothing against that party. Use it for experiments and tests; it logs a warning the
 * first time it is used in a JVM.
 */
public final class SeededNoiseSource implements NoiseSource {
    private static final Logger LOG = LoggerFactory.getLogger(SeededNoiseSource.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final Random random;
    private final NoiseKey key;

    private SeededNoiseSource(NoiseKey key) {
        this.key = key;
        this.random = Nd4j.getRandomFactory().getNewRandomInstance(key.seed());
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn("Using seeded noise ({}): reproducible but NOT secure; anyone who knows the seed can remove it. "
                    + "Use the secure ChaCha20 source for any real privacy guarantee.", key);
        }
    }

    /** The stream identified by {@code key}. */
    public static SeededNoiseSource forKey(NoiseKey key) {
        return new SeededNoiseSource(key);
    }

    @Override
    public void addGaussian(INDArray target, double std) {
        if (NoiseChecks.skip(target, std)) {
            return;
        }
        DataType type = target.dataType();
        INDArray noise = Nd4j.createUninitialized(type, target.shape(), 'c');
        Nd4j.getExecutioner().exec(new GaussianDistribution(noise, 0.0, std), random);
        target.addi(noise);
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String description() {
        return "seeded ND4J generator (NOT secure, reproducible) " + key;
    }
}
