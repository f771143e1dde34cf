package org.dpdl4j.protocol.personalized;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One message of the personalized protocols as the network carries it: agent i's model after an update, broadcast
 * to its neighbours. This is everything spec 6.1's adversary sees; attack observers reconstruct the rest from it.
 *
 * @param agent the sender
 * @param wake  the sender's wake-up count at this update (from 0)
 * @param model the broadcast model [p] (a copy)
 */
public record ModelBroadcast(int agent, long wake, INDArray model) {
}
