package org.dpdl4j.protocol.decentralized;

import java.io.Serializable;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What a block of nodes sends back from a round: its nodes' messages (the half-step models they broadcast, noisy for
 * the private algorithms) and what each measured.
 *
 * @param messages  one row per node
 * @param lossSums  each node's summed batch loss
 * @param batchSizes each node's batch size
 */
public record DecentralizedBlockOutput(Rows messages, double[] lossSums, int[] batchSizes) implements Serializable {
}
