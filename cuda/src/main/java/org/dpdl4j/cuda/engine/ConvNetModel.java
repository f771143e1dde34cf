package org.dpdl4j.cuda.engine;

import java.util.List;

/**
 * A float32 convolutional network as the engine computes it, free of any DL4J type: NCHW images (the host's flat rows of
 * {@code channels x height x width} values), convolution and max-pooling stages, the last stage's maps flattened in
 * NCHW order (DL4J's CnnToFeedForwardPreProcessor), then dense layers ending in a loss.
 *
 * @param stages    the convolutional part, input first; each stage's input is the previous stage's output
 * @param dense     the dense layers after it; the first takes the last stage's flattened output
 * @param loss      the output layer's activation and loss
 * @param numParams length of the flat parameter vector
 */
public record ConvNetModel(List<Stage> stages, List<DenseLayer> dense, OutputLoss loss, long numParams) {
    /** A stage of the convolutional part. */
    public sealed interface Stage permits Convolution, MaxPooling {
        ConvShape shape();
    }

    /**
     * A convolution with its bias and activation. Its weights are DL4J's [outC, inC, kH, kW] in row-major order from
     * {@code weightOffset}; its bias ({@code outC} values) from {@code biasOffset} (DL4J puts a convolution's bias first).
     */
    public record Convolution(ConvShape shape, Activation activation, boolean hasBias, long weightOffset, long biasOffset)
            implements Stage {
        public Convolution {
            if (activation == null || weightOffset < 0 || biasOffset < 0) {
                throw new IllegalArgumentException("a convolution needs its activation and parameter offsets >= 0");
            }
        }

        /** Weights and bias. */
        public long paramCount() {
            return (long) shape.outC() * shape.taps() + (hasBias ? shape.outC() : 0);
        }
    }

    /** Max pooling over windows of {@code shape} (its output channels are its input channels). */
    public record MaxPooling(ConvShape shape) implements Stage {
        public MaxPooling {
            if (shape.outC() != shape.inC()) {
                throw new IllegalArgumentException("pooling keeps the channels: " + shape.inC() + " in, " + shape.outC() + " out");
            }
        }
    }

    public ConvNetModel {
        stages = List.copyOf(stages);
        dense = List.copyOf(dense);
        if (stages.isEmpty() || dense.isEmpty() || loss == null) {
            throw new IllegalArgumentException("a convolutional network needs at least one stage, its dense output layer"
                    + " and its loss");
        }
        for (int s = 1; s < stages.size(); s++) {
            ConvShape before = stages.get(s - 1).shape();
            ConvShape now = stages.get(s).shape();
            if (now.inC() != before.outC() || now.inH() != before.outH() || now.inW() != before.outW()) {
                throw new IllegalArgumentException("stage " + s + " takes " + now.inC() + "x" + now.inH() + "x" + now.inW()
                        + " maps but stage " + (s - 1) + " gives " + before.outC() + "x" + before.outH() + "x" + before.outW());
            }
        }
        int flat = stages.get(stages.size() - 1).shape().outSize();
        if (dense.get(0).nIn() != flat) {
            throw new IllegalArgumentException("the first dense layer takes " + dense.get(0).nIn() + " inputs but the"
                    + " convolutional part gives " + flat);
        }
        for (int l = 1; l < dense.size(); l++) {
            if (dense.get(l).nIn() != dense.get(l - 1).nOut()) {
                throw new IllegalArgumentException("dense layer " + l + " takes " + dense.get(l).nIn() + " inputs but layer "
                        + (l - 1) + " gives " + dense.get(l - 1).nOut());
            }
        }
        if (numParams > KernelSource.MAX_ELEMENTS) {
            throw new IllegalArgumentException("the engine takes at most " + KernelSource.MAX_ELEMENTS + " parameters (one"
                    + " kernel launch's elements), got " + numParams);
        }
    }

    /** Values of one example's input. */
    public int nIn() {
        return stages.get(0).shape().inSize();
    }

    /** Label columns. */
    public int nOut() {
        return dense.get(dense.size() - 1).nOut();
    }
}
