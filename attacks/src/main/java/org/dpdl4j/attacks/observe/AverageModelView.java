package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A round of a gossip run as seen through the average model, with what the attacker knows of the other nodes.
 *
 * @param round          the round and the attacked node
 * @param othersReleased the sum over the other nodes {@code j != i} of their noise-free released gradients
 *                       (clipped and divided as the protocol does): the worst case, an attacker who knows every
 *                       other node's data and sampling
 */
public record AverageModelView(GossipRound round, INDArray othersReleased) {

    public AverageModelView {
        Objects.requireNonNull(round, "round must not be null");
        Objects.requireNonNull(othersReleased, "others' contribution must not be null (zeros for a single node)");
        if (othersReleased.length() != round.template().numParams()) {
            throw new IllegalArgumentException("others' contribution has " + othersReleased.length()
                    + " entries but the model has " + round.template().numParams() + " parameters");
        }
    }
}
