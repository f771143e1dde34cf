package org.dpdl4j.cuda.engine;

import org.bytedeco.javacpp.FloatPointer;

/**
 * The Gaussian noise a private step adds to the clipped sum before dividing it: none, values drawn on the host (by a
 * secure source: a cryptographic stream with the floating-point mitigation) and copied in, or Philox draws made on the
 * device from a seed, which are reproducible and fast but predictable to anyone who knows the seed: never secure.
 */
public sealed interface StepNoise {
    /** No noise (a non-private step, or a test). */
    record None() implements StepNoise {
    }

    /** Noise values already scaled, one per parameter, in host memory (e.g. an ND4J buffer the noise source filled). */
    record FromHost(FloatPointer values) implements StepNoise {
    }

    /** Noise values already scaled, one per parameter, in a Java array. */
    record FromArray(float[] values) implements StepNoise {
    }

    /** N(0, std^2) from Philox4x32-10 on the device at counter stream {@code stream} under {@code seed}: NOT secure. */
    record SeededPhilox(long seed, long stream, float std) implements StepNoise {
    }

    StepNoise NONE = new None();
}
