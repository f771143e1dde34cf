package org.dpdl4j.protocol.federated;

/** How plain FedAvg weights the participants' updates. */
public enum UpdateWeighting {
    /** 1/K over the K participants. */
    UNIFORM,
    /** {@code m_k / sum m} over the participants, m_k the size of client k's dataset (McMahan et al.). */
    BY_DATA_SIZE
}
