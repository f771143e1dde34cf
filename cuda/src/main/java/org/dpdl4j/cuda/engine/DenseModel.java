package org.dpdl4j.cuda.engine;

import java.util.List;

/**
 * A float32 feed-forward network of dense layers ending in a loss: what the engine computes, free of any DL4J type
 * (the adapter in {@code org.dpdl4j.cuda.dl4j} builds it from a DL4J network).
 *
 * @param layers    input first; the last is the output layer
 * @param loss      the output layer's activation and loss
 * @param numParams length of the flat parameter vector
 */
public record DenseModel(List<DenseLayer> layers, OutputLoss loss, long numParams) {
    public DenseModel {
        layers = List.copyOf(layers);
        if (layers.isEmpty()) {
            throw new IllegalArgumentException("a network needs at least its output layer");
        }
        if (loss == null) {
            throw new IllegalArgumentException("a network needs its output loss");
        }
        for (int l = 1; l < layers.size(); l++) {
            if (layers.get(l).nIn() != layers.get(l - 1).nOut()) {
                throw new IllegalArgumentException("layer " + l + " takes " + layers.get(l).nIn() + " inputs but layer "
                        + (l - 1) + " gives " + layers.get(l - 1).nOut());
            }
        }
        for (DenseLayer layer : layers) {
            if (layer.weightOffset() + layer.paramCount() > numParams) {
                throw new IllegalArgumentException("a layer's parameters end at " + (layer.weightOffset() + layer.paramCount())
                        + ", past the " + numParams + " parameters of the network");
            }
        }
        if (numParams > KernelSource.MAX_ELEMENTS) {
            throw new IllegalArgumentException("the engine takes at most " + KernelSource.MAX_ELEMENTS + " parameters (one"
                    + " kernel launch's elements), got " + numParams);
        }
    }

    /**
     * Dense layers one after another with their parameters packed in order (each layer's weights, then its bias), as
     * DL4J lays them out: {@code sizes} are the widths from the input to the output, {@code hidden} the activation of
     * every hidden layer.
     */
    public static DenseModel stacked(int[] sizes, Activation hidden, OutputLoss loss) {
        if (sizes.length < 2) {
            throw new IllegalArgumentException("give at least the input and output widths, got " + sizes.length + " sizes");
        }
        List<DenseLayer> layers = new java.util.ArrayList<>();
        long offset = 0;
        for (int l = 0; l + 1 < sizes.length; l++) {
            DenseLayer layer = new DenseLayer(sizes[l], sizes[l + 1], l + 2 < sizes.length ? hidden : Activation.IDENTITY,
                    true, offset);
            layers.add(layer);
            offset += layer.paramCount();
        }
        return new DenseModel(layers, loss, offset);
    }

    public DenseLayer output() {
        return layers.get(layers.size() - 1);
    }

    public int nIn() {
        return layers.get(0).nIn();
    }

    public int nOut() {
        return output().nOut();
    }

    /** Sum of the layers' widths: the columns of the block that holds every layer's error. */
    public int totalUnits() {
        int t = 0;
        for (DenseLayer l : layers) {
            t += l.nOut();
        }
        return t;
    }
}
