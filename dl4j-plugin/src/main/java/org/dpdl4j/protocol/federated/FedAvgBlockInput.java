package org.dpdl4j.protocol.federated;

import java.io.Serializable;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What the server sends a block of clients for a round: the global model, which of the block's clients take part,
 * and how wide the round's batches are (the widest participant's, over all blocks).
 *
 * @param theta        the global model, one row
 * @param participants the block's participants (client ids, increasing), possibly none
 * @param width        the round's batch width
 */
public record FedAvgBlockInput(Rows theta, int[] participants, int width) implements Serializable {
}
