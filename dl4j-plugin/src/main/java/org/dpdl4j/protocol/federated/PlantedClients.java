package org.dpdl4j.protocol.federated;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Clients whose update a private FedAvg round takes as given instead of training them: an audit's canary clients
 * ({@code org.dpdl4j.audit.CanaryClients}). They are clients of the run in every other respect, numbered after the
 * real ones: the server samples them with the others, the expected number of participants and the accountant count
 * them, and their updates go through the same clipping and noise, so that the run's epsilon covers each of them.
 */
public interface PlantedClients {

    /** How many planted clients the run has, after its real clients. */
    int count();

    /**
     * The updates of the planted clients taking part in a round, before clipping and noise. A correct audit plants
     * updates of norm at most the clip S.
     *
     * @param planted    indices in {@code [0, count())}, increasing, at least one
     * @param parameters p, the global model's number of parameters
     * @param type       the global model's type
     * @return [planted.length, p], one row per index, in order
     */
    INDArray updates(int[] planted, long parameters, DataType type);
}
