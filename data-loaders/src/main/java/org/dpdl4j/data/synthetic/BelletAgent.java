package org.dpdl4j.data.synthetic;

import java.util.Objects;
import org.dpdl4j.data.LabeledData;

/**
 * One agent of the collaborative classification workload. Labels are classes {0, 1}: class 1 is
 * the label +1 and class 0 the label -1 of the paper's logistic loss {@code log(1 + exp(-y theta.x))}.
 *
 * @param id     the agent's index
 * @param target the agent's true separator (first two entries N(0,1), the rest 0)
 * @param train  the agent's m_i training points
 * @param test   the agent's test points
 */
public record BelletAgent(int id, double[] target, LabeledData train, LabeledData test) {
    public BelletAgent {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(test, "test");
        target = target.clone();
    }

    /** A copy of the target separator. */
    @Override
    public double[] target() {
        return target.clone();
    }

    /** The label in {-1, +1} of a class in {0, 1}. */
    public static int sign(int cls) {
        return cls == 1 ? 1 : -1;
    }
}
