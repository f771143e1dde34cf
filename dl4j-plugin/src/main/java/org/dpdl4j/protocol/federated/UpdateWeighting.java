package org.dpdl4j.protocol.federated;

/** How plain FedAvg weights the participants' updates. */
public enum UpdateWeighting {
    /** 1/K over the K participants. */
    UNIFORM,
    /** {@code m_k / sum m} over the participants, m_k the size of client k's dataset (McMahan et al.). */
    BY_DATA_SIZE;

    /**
     * The participants' weights, summing to 1.
     *
     * @param participants the participants' client ids
     * @param sizes        every client's number of examples
     */
    public double[] weights(int[] participants, double[] sizes) {
        double[] w = new double[participants.length];
        double total = 0;
        for (int j = 0; j < w.length; j++) {
            w[j] = this == UNIFORM ? 1.0 : sizes[participants[j]];
            total += w[j];
        }
        for (int j = 0; j < w.length; j++) {
            w[j] /= total;
        }
        return w;
    }
}
