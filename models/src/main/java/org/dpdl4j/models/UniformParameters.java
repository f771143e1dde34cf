package org.dpdl4j.models;

import java.util.Objects;
import java.util.SplittableRandom;
import org.deeplearning4j.nn.api.Model;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Fills every parameter of an initialised network, weights and biases alike, from a seeded uniform source.
 * DL4J initialises biases to a constant, while the DLG reference initialises them like the weights.
 *
 * <p>The draws come from {@link SplittableRandom} in double precision on the host (one pass at
 * initialisation, not a hot path), so the same seed gives the same parameters on every ND4J backend.
 * Parameters are filled in the order of DL4J's flattened parameter vector.
 */
public final class UniformParameters {
    private UniformParameters() {
    }

    /**
     * Overwrites all parameters of {@code model} with independent draws from {@code U(low, high)}.
     *
     * @param model an initialised network ({@code init()} already called)
     * @param seed  seed of the uniform source
     * @param low   lower bound (inclusive)
     * @param high  upper bound (exclusive), greater than {@code low}
     */
    public static void fill(Model model, long seed, double low, double high) {
        Objects.requireNonNull(model, "model must not be null");
        if (!Double.isFinite(low) || !Double.isFinite(high) || !(low < high)) {
            throw new IllegalArgumentException("uniform bounds must be finite with low < high, got low=" + low
                    + ", high=" + high);
        }
        INDArray params = model.params();
        if (params == null || params.isEmpty()) {
            throw new IllegalStateException("the network has no parameters to fill; call init() on it first");
        }
        long count = params.length();
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the network has " + count + " parameters; at most "
                    + Integer.MAX_VALUE + " can be filled");
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[] values = new double[(int) count];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextDouble(low, high);
        }
        INDArray drawn = Nd4j.createFromArray(values).castTo(params.dataType()).reshape(params.shape());
        model.setParams(drawn);
    }
}
