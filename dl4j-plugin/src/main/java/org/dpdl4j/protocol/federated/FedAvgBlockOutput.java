package org.dpdl4j.protocol.federated;

import java.io.Serializable;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What a block's participants send the server: their updates as they leave them (clipped and noised by the clients in
 * DP-FedAvg local, GOPA's revealed values, raw otherwise), and their losses at the round's first local step.
 *
 * @param messages      one row per participant, or null when none took part
 * @param firstLossSums each participant's summed loss
 * @param firstSizes    each participant's batch size
 */
public record FedAvgBlockOutput(Rows messages, double[] firstLossSums, int[] firstSizes) implements Serializable {
}
