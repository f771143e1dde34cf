package org.dpdl4j.runtime;

/**
 * Parts of memory estimates that the protocols with many parties share: the parties' copies of the data, and what
 * the stacked per-example gradient engine ({@code PerExampleGradients} over an [n, p] matrix of models) allocates in a
 * step.
 */
public final class PartyMemory {
    /**
     * Arrays of a batch's size per layer output in the engine's pass: pre-activations, activations, errors, the
     * errors sent back to the layer below, and the activation's and loss's own temporaries.
     */
    static final int ACTIVATION_COPIES = 5;
    /** A round workspace's size over what it holds (its over-allocation). */
    static final double WORKSPACE_SIZE = 1.1;
    /** Java objects of one party's data (its feature and label arrays and their buffers), in heap bytes. */
    static final double HEAP_PER_PARTY = 1_000;

    private PartyMemory() {
    }

    /**
     * The parties' data: each party's rows copied out of the training set, and each party's Java objects; with
     * {@code stacked}, also the stack of all of them that every round's batches are gathered from (with each example's
     * squared norm).
     */
    public static MemoryEstimate.Builder splitData(MemoryEstimate.Builder b, DataShape data, long parties, int valueBytes,
                                                   boolean stacked) {
        double copy = data.bytes(valueBytes);
        return b.add("the parties' data (" + data.examples() + " examples" + (stacked ? ", split and stacked)" : ")"),
                stacked ? 2 * copy + (double) data.examples() * valueBytes : copy, HEAP_PER_PARTY * parties);
    }

    /**
     * What one step of the stacked engine allocates for {@code models} models with {@code width} examples each, in the
     * round (or step) workspace it runs in, which holds a tenth more than it learned in its first round
     * ({@link RoundWorkspace}): the weight gradients (a [models, p] array), the gathered batch, and its activations and
     * errors.
     */
    public static MemoryEstimate.Builder stackedSteps(MemoryEstimate.Builder b, ModelFootprint m, double models, double width,
                                                       DataShape data) {
        int w = m.valueBytes();
        b.arrays("weight gradients", WORKSPACE_SIZE * models, m.parameters(), w);
        b.arrays("the batches' activations and errors", WORKSPACE_SIZE * models * width, ACTIVATION_COPIES * m.activations(), w);
        return b.arrays("the gathered batches", WORKSPACE_SIZE * models * width, data.valuesPerExample() + 2, w);
    }
}
