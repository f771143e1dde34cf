package org.dpdl4j.nn;

import java.io.Serializable;
import java.util.Objects;

/**
 * One reason a network cannot be used as it is: where (a layer, or the whole network), what is unsupported
 * and why, and what to change. Printed as {@code where: problem (fix)}.
 *
 * @param layerIndex index of the layer, or {@link #NETWORK} for a problem of the whole network
 * @param where      the layer as {@link LayerDescription#label()} names it, or {@code null} for the whole network
 * @param problem    what is unsupported and why
 * @param fix        what to change
 */
public record ModelProblem(int layerIndex, String where, String problem, String fix) implements Serializable {
    /** The {@link #layerIndex()} of a problem of the whole network. */
    public static final int NETWORK = -1;

    public ModelProblem {
        Objects.requireNonNull(problem, "problem must not be null");
        Objects.requireNonNull(fix, "fix must not be null");
        if (layerIndex < NETWORK || (layerIndex == NETWORK) != (where == null)) {
            throw new IllegalArgumentException("a layer problem needs a layer index >= 0 and a place, a network"
                    + " problem neither; got index " + layerIndex + " and place " + where);
        }
    }

    /** A problem of the whole network rather than of one layer. */
    public static ModelProblem network(String problem, String fix) {
        return new ModelProblem(NETWORK, null, problem, fix);
    }

    @Override
    public String toString() {
        return (where == null ? "" : where + ": ") + problem + " (" + fix + ")";
    }
}
