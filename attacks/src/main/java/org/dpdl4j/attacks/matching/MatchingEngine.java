package org.dpdl4j.attacks.matching;

import java.util.Objects;
import org.nd4j.linalg.api.buffer.DataType;

/** Which implementation evaluates the matching loss. */
public enum MatchingEngine {
    /** The plain-Java closed form ({@link #JAVA}) for every network it supports. */
    AUTO,
    /**
     * {@link JavaGradientMatching}: hand-derived reverse pass in plain Java, double precision; dense and convolution
     * stages, pooling included.
     */
    JAVA,
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
        return create(problem, dataType, MatchingLoss.SQUARED_DISTANCE);
    }

    /**
     * An objective for the problem with the given loss.
     *
     * @param dataType precision of the evaluation (FLOAT or DOUBLE; {@link #JAVA} always computes in double)
     * @throws IllegalArgumentException if the engine cannot evaluate the problem or the loss (the cosine distance is
     *                                  {@link #JAVA}'s only)
     */
    public MatchingObjective create(MatchingProblem problem, DataType dataType, MatchingLoss loss) {
        Objects.requireNonNull(problem, "problem must not be null");
        Objects.requireNonNull(dataType, "data type must not be null");
        Objects.requireNonNull(loss, "loss must not be null");
        if (dataType != DataType.FLOAT && dataType != DataType.DOUBLE) {
            throw new IllegalArgumentException("gradient matching runs in FLOAT or DOUBLE, got " + dataType);
        }
        if (loss != MatchingLoss.SQUARED_DISTANCE && this != AUTO && this != JAVA) {
            throw new IllegalArgumentException("the " + this + " engine evaluates the squared distance only; use"
                    + " MatchingEngine.JAVA or AUTO for " + loss);
        }
        return switch (this) {
            case AUTO, JAVA -> new JavaGradientMatching(problem, loss);
            case CLOSED_FORM -> new DenseGradientMatching(problem, dataType);
            case SAMEDIFF -> new SameDiffGradientMatching(problem, dataType);
        };
    }
}
