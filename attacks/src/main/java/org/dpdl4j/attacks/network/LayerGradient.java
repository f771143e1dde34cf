package org.dpdl4j.attacks.network;

import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The gradient (or any vector in parameter space, such as an observed update) restricted to one stage, in the
 * stage's own shapes.
 *
 * @param weights same shape as {@link Stage#weights()}
 * @param bias    {@code 1 x outChannels}, or {@code null} when the stage has no bias
 */
public record LayerGradient(INDArray weights, INDArray bias) {

    public LayerGradient {
        Objects.requireNonNull(weights, "layer gradient: weights must not be null");
    }

    /** Whether the stage has a bias part. */
    public boolean hasBias() {
        return bias != null;
    }

    /** Sum of squares of all entries, in double. */
    public double squaredNorm() {
        double w = weights.norm2Number().doubleValue();
        double b = bias == null ? 0.0 : bias.norm2Number().doubleValue();
        return w * w + b * b;
    }
}
