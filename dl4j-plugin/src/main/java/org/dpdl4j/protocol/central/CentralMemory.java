package org.dpdl4j.protocol.central;

import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;

/**
 * What central training holds: one DL4J network (its parameters, its gradient and its updater's state, all flattened
 * vectors), the training set's batch of a step, and the batch's activations and errors; DP-SGD adds each example's
 * squared feature norm, a noise vector, and for convolutions the unfolded inputs and the per-example norm terms.
 *
 * @param protocol     the protocol's name
 * @param model        the network's sizes
 * @param data         the training set
 * @param batch        examples per step (the expected number under Poisson sampling)
 * @param updaterState values of the updater's state per parameter (Adam 2, momentum 1, SGD 0)
 * @param poisson      whether batches are Poisson-sampled (then a batch may exceed its expected size)
 * @param isPrivate    DP-SGD rather than DL4J's fit
 */
record CentralMemory(String protocol, ModelFootprint model, DataShape data, long batch, double updaterState, boolean poisson,
                     boolean isPrivate) {
    /**
     * Batch-sized arrays per layer output, as measured (peak resident memory over a few steps): DL4J's fit keeps
     * activations, pre-activations and errors in workspaces with room to spare (6 for a dense network; 3 beside the
     * unfolded inputs of a convolutional one, counted apart); DP-SGD's dense engine keeps host copies of every layer's
     * rows beside ND4J's (11), its convolution engine activations, pre-activations, errors and the errors sent back (5).
     */
    private static final int FIT_DENSE_COPIES = 6;
    private static final int FIT_CONVOLUTION_COPIES = 3;
    private static final int PRIVATE_DENSE_COPIES = 11;
    private static final int PRIVATE_CONVOLUTION_COPIES = 5;

    MemoryEstimate estimate() {
        int w = model.valueBytes();
        double rows = poisson ? Math.min(data.examples(), batch + 4 * Math.sqrt(batch) + 1) : batch;
        MemoryEstimate.Builder b = MemoryEstimate.of(protocol + " with " + model.describe() + " and batches of " + batch);
        b.arrays("the parameters, gradient and updater state", 2 + updaterState + (isPrivate ? 1 : 0), model.parameters(), w);
        b.arrays("the batch", rows, data.valuesPerExample() + 1, w);
        boolean dense = model.unfolded() == 0;
        int copies = isPrivate ? (dense ? PRIVATE_DENSE_COPIES : PRIVATE_CONVOLUTION_COPIES)
                : dense ? FIT_DENSE_COPIES : FIT_CONVOLUTION_COPIES;
        b.arrays("its activations and errors", rows, copies * model.activations(), w);
        b.arrays("the unfolded inputs of its convolutions", rows, 2 * model.unfolded() + (isPrivate ? model.exampleNorms() : 0), w);
        if (isPrivate) {
            b.arrays("the examples' squared norms", data.examples(), 1, w);
        }
        if (batch > 1) {
            b.knob("--batch-size", "examples per batch", batch, s -> new CentralMemory(protocol, model, data, s, updaterState,
                    poisson, isPrivate).estimate());
        }
        return b.fix("a smaller model").build();
    }
}
