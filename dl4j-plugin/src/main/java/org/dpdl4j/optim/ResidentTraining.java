package org.dpdl4j.optim;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A per-example engine that can keep a network's training in its device's memory across steps: the parameters, the
 * updater state ({@link DeviceUpdater}: DL4J's Sgd and Nesterovs) and the gradient stay there, a step copies in the
 * batch and the noise (drawn by the host's noise source, so secure noise keeps its guarantee) and copies out the norms
 * and the loss sum. {@link DpOptimizer} copies the parameters and the updater state back into the network only when
 * something reads them.
 */
public interface ResidentTraining extends ExampleGradients {
    /**
     * Copies the network's parameters and updater state into the device's memory, and takes the updater's segments
     * for the following steps.
     *
     * @param updaterState the updater's state array, or null when it keeps none ({@link DeviceUpdater#stateLength()} 0)
     */
    void load(INDArray params, INDArray updaterState, DeviceUpdater updater);

    /**
     * The clipped gradient sum of a batch at the device's parameters, into the device's gradient (as
     * {@link #sumClipped} computes it, without the copies of the parameters in and of the sum out).
     */
    ClippedBatch clipAndSum(INDArray features, INDArray labels, INDArray featureSquaredNorms, double clipNorm);

    /**
     * Adds the noise to the clipped sum, divides it by {@code divisor} (the released gradient, kept in the device's
     * gradient) and applies the updater's segments with this step's rates.
     *
     * @param noise the values to add, already scaled ({@code [p]}, host memory), or null for none
     */
    void step(INDArray noise, double divisor, DeviceUpdater.Rates rates);

    /** Copies the device's parameters into {@code params}. */
    void readParameters(INDArray params);

    /** Copies the device's updater state into {@code updaterState}. */
    void readUpdaterState(INDArray updaterState);

    /** Copies the device's gradient (the released one after {@link #step}) into {@code gradient}. */
    void readGradient(INDArray gradient);
}
