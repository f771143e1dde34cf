package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.protocol.decentralized.RoundTap;

/**
 * One node's messages in one round of a decentralized run, as tapped from the engine.
 *
 * @param tap      the round (valid only during the engine's callback; observers copy what they keep)
 * @param node     the attacked node
 * @param template a network with the run's architecture (its parameters are ignored)
 */
public record GossipRound(RoundTap tap, int node, MultiLayerNetwork template) {

    public GossipRound {
        Objects.requireNonNull(tap, "tap must not be null");
        Objects.requireNonNull(template, "template must not be null");
        int n = (int) tap.before().size(0);
        if (node < 0 || node >= n) {
            throw new IllegalArgumentException("node " + node + " is outside 0.." + (n - 1));
        }
        if (tap.before().size(1) != template.numParams()) {
            throw new IllegalArgumentException("the run's models have " + tap.before().size(1)
                    + " parameters but the template network has " + template.numParams());
        }
    }

    /** The node's model {@code x_i^t}, where its gradient was taken, as a fresh network. */
    MultiLayerNetwork nodeModel() {
        MultiLayerNetwork model = template.clone();
        model.setParams(tap.before().getRow(node).dup().reshape(1, model.numParams())
                .castTo(model.params().dataType()));
        return model;
    }
}
