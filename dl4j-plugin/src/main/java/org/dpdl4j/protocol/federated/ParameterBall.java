package org.dpdl4j.protocol.federated;

import org.dpdl4j.optim.RowClipping;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The feasible set {@code K = {theta : ||theta|| <= D/2}} of the constrained methods: a Euclidean ball of
 * diameter D centred at 0, over a model's whole flattened parameter vector (DL4J's layout, weights and
 * biases together). An infinite diameter means no constraint, which only a non-private run may use.
 *
 * @param diameter D &gt; 0, or {@link Double#POSITIVE_INFINITY}
 */
public record ParameterBall(double diameter) implements java.io.Serializable {
    public ParameterBall {
        if (!(diameter > 0)) {
            throw new IllegalArgumentException("the diameter D of the parameter ball must be > 0, got " + diameter
                    + "; the paper's MNIST setup uses D = 0.1 (use +Infinity for no constraint)");
        }
    }

    /** No constraint (projection is the identity). */
    public static ParameterBall unbounded() {
        return new ParameterBall(Double.POSITIVE_INFINITY);
    }

    /** D / 2. */
    public double radius() {
        return diameter / 2;
    }

    /** Whether the ball is the whole space. */
    public boolean isUnbounded() {
        return Double.isInfinite(diameter);
    }

    /**
     * Projects every row of {@code rows} ([r, p], or a vector) onto the ball, in place: a row of norm
     * above D/2 is scaled to norm D/2, others are unchanged.
     *
     * @return {@code rows}
     */
    public INDArray project(INDArray rows) {
        if (isUnbounded()) {
            return rows;
        }
        RowClipping.clip(rows, radius());
        return rows;
    }

    /** Whether {@code point} lies in the ball up to a relative tolerance on the radius. */
    public boolean contains(INDArray point, double relativeTolerance) {
        return isUnbounded() || point.norm2Number().doubleValue() <= radius() * (1 + relativeTolerance);
    }
}
