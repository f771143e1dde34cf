package org.dpdl4j.attacks.matching;

import org.dpdl4j.attacks.optim.FlatObjective;

/**
 * The gradient-matching loss {@code D} of a {@link MatchingProblem} and its gradient with respect to the
 * unknowns, laid out as {@link #layout()} says. Implementations differentiate through the network's backward
 * pass (second-order terms included). An instance is not thread-safe.
 */
public interface MatchingObjective extends FlatObjective {

    /** The problem this objective evaluates. */
    MatchingProblem problem();

    /** Where the unknowns sit in the flat vector. */
    default UnknownLayout layout() {
        return problem().layout();
    }

    @Override
    default int dimension() {
        return layout().dimension();
    }

    /** Short description for logs and reports, e.g. {@code closed-form dense (DOUBLE)}. */
    String description();
}
