package org.dpdl4j.attacks.matching;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.dpdl4j.attacks.network.ConvolutionStage;
import org.dpdl4j.attacks.network.Stage;
import org.dpdl4j.attacks.network.TargetNetwork;
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
            throw new IllegalArgumentException("the " + displayName() + " engine evaluates the squared distance only; use"
                    + " the java or auto engine for " + loss);
        }
        return switch (this) {
            case AUTO, JAVA -> new JavaGradientMatching(problem, loss);
            case CLOSED_FORM -> new DenseGradientMatching(problem, dataType);
            case SAMEDIFF -> new SameDiffGradientMatching(problem, dataType);
        };
    }

    /** The engine's name in messages and on the command line: auto, java, closed-form or samediff. */
    public String displayName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Why this engine cannot evaluate the matching loss of {@code network}, from its structure alone (so it can be
     * asked before any data is loaded); empty when it can.
     */
    public Optional<String> limitation(TargetNetwork network) {
        if (this == CLOSED_FORM && !network.isDenseOnly()) {
            return Optional.of("the closed-form engine evaluates dense networks only, and this network has convolutions;"
                    + " use the java (or auto) or samediff engine");
        }
        if (this == SAMEDIFF) {
            for (Stage stage : network.stages()) {
                if (stage instanceof ConvolutionStage c && c.isPooled()) {
                    return Optional.of("the samediff engine has no pooling, and this network pools after layer "
                            + c.layerIndex() + "; use the java (or auto) engine");
                }
            }
        }
        return Optional.empty();
    }
}
