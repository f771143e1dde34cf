package org.dpdl4j.protocol.federated;

import java.io.Serializable;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What a block of machines returns for a round.
 *
 * @param dhat     the machines' new estimates, one row each (the state the run keeps and checkpoints)
 * @param messages what they send the server, {@code dhat^i + Y^i}, when they add their own noise; null when they send
 *                 {@code dhat} itself (trusted server, or no noise)
 * @param lossSums each machine's summed loss on the round's samples at x_t
 * @param maxNormQ the largest {@code ||q_t^i||} before clipping
 * @param clipped  how many of the block's machines had their increment clipped
 */
public record Mu2BlockOutput(Rows dhat, Rows messages, Rows lossSums, double maxNormQ, long clipped) implements Serializable {
}
