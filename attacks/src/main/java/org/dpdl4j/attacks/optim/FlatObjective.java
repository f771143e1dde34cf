package org.dpdl4j.attacks.optim;

/**
 * A differentiable function of a flat vector of unknowns, as the optimisers see it.
 */
public interface FlatObjective {

    /** Number of unknowns. */
    int dimension();

    /**
     * The value at {@code point}; writes the gradient into {@code gradient} (same length, overwritten).
     * Implementations must not keep references to either array.
     */
    double evaluate(double[] point, double[] gradient);
}
