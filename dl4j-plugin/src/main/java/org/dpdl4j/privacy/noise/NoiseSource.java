package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A stream of Gaussian noise for privacy mechanisms. Implementations differ in where their
 * randomness comes from: {@link SecureNoiseSource} draws it from a cryptographic stream cipher (the
 * default, and the only choice that protects a real deployment), {@link SeededNoiseSource} from a fast
 * seeded generator that is reproducible and therefore not secure.
 *
 * <p>A source is a sequential stream: draws are consumed in order and never reused. Sources are not
 * thread-safe; give each thread (or node) its own.
 */
public interface NoiseSource {

    /** Adds independent N(0, std^2) noise to every element of {@code target}, in place. */
    void addGaussian(INDArray target, double std);

    /**
     * Overwrites every element of {@code target} with independent N(0, std^2) noise: the values {@link #addGaussian}
     * would add to an array of zeros, from the same point of the stream. Sources that can write the draws straight
     * into the target's memory override this; it saves zeroing the target and an addition pass.
     */
    default void writeGaussian(INDArray target, double std) {
        target.assign(0);
        addGaussian(target, std);
    }

    /** A new array of the given type and shape filled with independent N(0, std^2) noise. */
    default INDArray gaussian(DataType dataType, double std, long... shape) {
        INDArray out = Nd4j.zeros(dataType, shape);
        addGaussian(out, std);
        return out;
    }

    /** True when no party without the key (or the machine's entropy) can predict the noise. */
    boolean isSecure();

    /** One line for logs and privacy statements, e.g. "ChaCha20 (secure, key from SecureRandom)". */
    String description();
}
