package org.dpdl4j.demo.dpgd;

import java.io.Serializable;
import java.util.Objects;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What a worker needs to compute the clipped gradient sums of one block of {@code dp-gd}'s training examples.
 *
 * @param model    the network's configuration as JSON
 * @param first    the row of the training set the block starts at
 * @param features the block's examples
 * @param labels   their labels
 * @param clip     the per-example clipping norm C
 */
record DpGdBlockPlan(String model, int first, Rows features, Rows labels, double clip) implements Serializable {
    DpGdBlockPlan {
        Objects.requireNonNull(model, "model");
        if (features.rows() != labels.rows() || features.rows() < 1) {
            throw new IllegalArgumentException("a block needs at least one example and one label per example, got "
                    + features.rows() + " examples and " + labels.rows() + " labels");
        }
    }
}
