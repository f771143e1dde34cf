package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Fast, reproducible Gaussian noise keyed by a {@link NoiseKey}: the same ziggurat sampler as the secure
 * source, on the AES-CTR key stream of a key derived from the noise key (without the floating-point
 * mitigation, which cannot matter for noise anyone with the seed can regenerate).
 * <b>Not secure</b>: anyone who knows the seed can subtract the noise, so a "private" run with this
 * source protects nothing against that party. Use it for experiments and tests; it warns the first time it is
 * used in a JVM, through the logging, or on standard error where no logging provider would show it.
 */
public final class SeededNoiseSource implements NoiseSource {
    private static final Logger LOG = LoggerFactory.getLogger(SeededNoiseSource.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final GaussianSampler sampler;
    private final NoiseKey key;

    private SeededNoiseSource(NoiseKey key) {
        this.key = key;
        this.sampler = new GaussianSampler(new KeyStream(StreamCipher.AES_256_CTR, key.digest(), 0), false);
        if (WARNED.compareAndSet(false, true)) {
            UnmissableWarning.warn(LOG, "Using seeded noise (seed " + key.masterSeed() + "): reproducible but NOT secure;"
                    + " anyone who knows the seed can remove it. Use secure noise (--noise secure, NoiseKind.SECURE) for any"
                    + " real privacy guarantee.");
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
        sampler.addTo(target, std);
    }

    @Override
    public void writeGaussian(INDArray target, double std) {
        if (NoiseChecks.skip(target, std)) {
            target.assign(0);
            return;
        }
        sampler.writeTo(target, std);
    }

    /**
     * Draws and discards {@code count} values: the stream then stands where it would after writing that many, as the
     * next values of one long draw would.
     */
    void skip(long count) {
        sampler.skip(count);
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String description() {
        return "seeded AES-CTR stream (NOT secure, reproducible) " + key;
    }
}
