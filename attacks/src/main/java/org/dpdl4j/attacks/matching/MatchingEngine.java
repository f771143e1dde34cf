package org.dpdl4j.attacks.matching;

import java.util.Objects;
import org.nd4j.linalg.api.buffer.DataType;

/** Which implementation evaluates the matching loss. */
public enum MatchingEngine {
    /** The closed form for dense networks, SameDiff otherwise. */
    AUTO,
    /** {@link DenseGradientMatching}: hand-derived reverse pass in ND4J ops; dense networks only. */
    CLOSED_FORM,
    /** {@link SameDiffGradientMatching}: the backward pass as a SameDiff graph, differentiated by SameDiff. */
    SAMEDIFF;

    /**
     * An objective for the problem.
     *
     * @param dataType precision of the evaluation (FLOAT or DOUBLE)
     * @throws IllegalArgumentException if {@link #CLOSED_FORM} is asked for a network with convolutions
     */
    public MatchingObjective create(MatchingProblem problem, DataType dataType) {
        Objects.requireNonNull(problem, "problem must not be null");
        Objects.requireNonNull(dataType, "data type must not be null");
        if (dataType != DataType.FLOAT && dataType != DataType.DOUBLE) {
            throw new IllegalArgumentException("gradient matching runs in FLOAT or DOUBLE, got " + dataType);
        }
        return switch (this) {
            case AUTO -> problem.network().isDenseOnly() || problem.hasSecondPoint()
                    ? new DenseGradientMatching(problem, dataType) : new SameDiffGradientMatching(problem, dataType);
            case CLOSED_FORM -> new DenseGradientMatching(problem, dataType);
            case SAMEDIFF -> new SameDiffGradientMatching(problem, dataType);
        };
    }
}
