package org.dpdl4j.protocol.decentralized;

import java.io.Serializable;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What a block of nodes is sent for a round: the messages its nodes received in the last round (the half-step models
 * of the nodes its rows of the mixing matrix read, from which each node gossips its own model), or, at the start and
 * after a restore, its nodes' models themselves.
 *
 * @param received the messages, rows {@code gossip.reads()} of the last round's half-step models; or null
 * @param models   the nodes' models; or null
 */
public record DecentralizedBlockInput(Rows received, Rows models) implements Serializable {
    public DecentralizedBlockInput {
        if ((received == null) == (models == null)) {
            throw new IllegalArgumentException("a block is sent either the messages its nodes received or their models");
        }
    }

    /** The messages of the last round. */
    public static DecentralizedBlockInput received(Rows messages) {
        return new DecentralizedBlockInput(messages, null);
    }

    /** The nodes' models (no messages to gossip). */
    public static DecentralizedBlockInput models(Rows models) {
        return new DecentralizedBlockInput(null, models);
    }
}
