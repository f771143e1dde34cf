package org.dpdl4j.nn;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A network that a computation of this library cannot handle exactly. The message lists every problem found
 * (network-wide ones first, then by layer), each naming the layer, what is unsupported and what to do, and ends
 * with what the computation supports.
 */
public final class UnsupportedModelException extends IllegalArgumentException {
    private static final long serialVersionUID = 2L;

    private final List<ModelProblem> problems;

    /**
     * @param refusal   what cannot be done, e.g. "This network cannot be trained with per-example clipping"
     * @param problems  every problem found, at least one
     * @param supported one sentence on what is supported
     */
    public UnsupportedModelException(String refusal, List<ModelProblem> problems, String supported) {
        super(message(refusal, inMessageOrder(problems), supported));
        this.problems = inMessageOrder(problems);
    }

    /** The problems, in the order of the message. */
    public List<ModelProblem> problems() {
        return problems;
    }

    /** Network-wide problems first, then by layer; a stable sort keeps a layer's problems in the order found. */
    private static List<ModelProblem> inMessageOrder(List<ModelProblem> problems) {
        if (problems == null || problems.isEmpty()) {
            throw new IllegalArgumentException("an unsupported model needs at least one problem");
        }
        return problems.stream().sorted(Comparator.comparingInt(ModelProblem::layerIndex)).toList();
    }

    private static String message(String refusal, List<ModelProblem> problems, String supported) {
        Objects.requireNonNull(refusal, "refusal must not be null");
        Objects.requireNonNull(supported, "supported must not be null");
        return refusal + ":\n  - " + problems.stream().map(ModelProblem::toString)
                .collect(Collectors.joining("\n  - ")) + "\n" + supported;
    }
}
