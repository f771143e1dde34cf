package org.dpdl4j.attacks.optim;

/**
 * A stateful optimiser that improves a point in place, one outer step at a time; the state (history, moments)
 * carries over between steps, as in PyTorch's optimisers. One instance serves one optimisation run.
 */
public interface Minimizer {

    /**
     * Runs one outer step from {@code point}, updating it in place.
     *
     * @throws IllegalArgumentException if the dimension of the point differs from the objective's
     */
    StepOutcome step(FlatObjective objective, double[] point);

    /** Total objective evaluations so far. */
    long evaluations();
}
