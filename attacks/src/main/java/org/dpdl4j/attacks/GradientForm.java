package org.dpdl4j.attacks;

import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What an observed vector is a multiple of. Most releases carry the loss gradient of the attacked batch at the case's
 * model; an increment of mu^2-SGD carries a weighted difference of the gradients of the same batch at two models,
 * {@code q_t = alpha_t grad f(x_t) - alpha_(t-1) grad f(x_(t-1))}.
 */
public sealed interface GradientForm {

    /** The gradient at the case's model. */
    GradientForm AT_MODEL = new AtModel();

    /** The gradient of the batch-mean loss at the case's model. */
    record AtModel() implements GradientForm {
    }

    /**
     * {@code currentWeight * gradient at the case's model - previousWeight * gradient at previousParameters}, both of
     * the batch-mean loss of the same examples.
     *
     * @param previousParameters the second model's parameters, laid out like {@code params()} (kept as a copy)
     * @param currentWeight      weight of the gradient at the case's model
     * @param previousWeight     weight subtracted at the second model
     */
    record Difference(INDArray previousParameters, double currentWeight, double previousWeight)
            implements GradientForm {
        public Difference {
            Objects.requireNonNull(previousParameters, "previous parameters must not be null");
            if (!Double.isFinite(currentWeight) || !Double.isFinite(previousWeight)) {
                throw new IllegalArgumentException("weights must be finite, got " + currentWeight + " and "
                        + previousWeight);
            }
            previousParameters = previousParameters.dup().reshape(1, previousParameters.length());
        }
    }
}
