package org.dpdl4j.cuda.engine;

import java.util.List;

/**
 * The DP step of a {@link ConvNetModel}: the convolution and pooling passes through the backend's
 * {@link Convolutions} (cuDNN on a GPU), the dense layers after them as {@link DenseDpStep} computes them, and each
 * example's squared gradient norm without a per-example loop: a dense layer's ghost term, and for a convolution (with T
 * output positions, K taps and n filters, U_i example i's unfolded input, T x K, and D_i its error, T x n) whichever is
 * cheaper, as dpdl4j's CPU engine chooses ({@link #ghostNorms}):
 * <ul>
 *   <li>ghost: {@code <U_i U_i^T, D_i D_i^T>} from two strided batched products of T x T Gram matrices;</li>
 *   <li>materialised: {@code ||U_i^T D_i||^2} from one strided batched product of the examples' K x n gradients, which
 *       then give the clipped sum {@code sum_i c_i U_i^T D_i} as one matrix-vector product.</li>
 * </ul>
 * The bias adds {@code ||sum_t D_i[t]||^2}. A ghost-norm convolution's clipped sum is cuDNN's filter gradient of the
 * errors scaled by {@code c_i}.
 */
public final class ConvNetDpStep extends DpStep {
    private final ConvNetModel model;
    private final List<ConvNetModel.Stage> stages;
    private final DenseStack dense;
    /** Per stage: its output (a convolution's activation), then the loss's gradient with respect to it. */
    private final DeviceArray[] outputs;
    private final DeviceArray[] gradients;
    /** Per convolution with materialised norms: the examples' weight gradients, K n values each; else null. */
    private final DeviceArray[] exampleGradients;
    /** Per convolution with a bias: the examples' bias gradients, n values each; else null. */
    private final DeviceArray[] exampleBiasGradients;
    private final int unfoldedLength;
    private final int gramLength;
    private final int maxPositions;
    private DeviceArray unfolded;
    private DeviceArray gramInputs;
    private DeviceArray gramErrors;
    private DeviceArray factors;
    /** Work space of the per-example norms' lanes ({@link Kernels#addRowDots}). */
    private DeviceArray lanes;
    private DeviceArray positionOnes;

    public ConvNetDpStep(Backend backend, ConvNetModel model) {
        super(backend, model.numParams(), model.nIn(), model.nOut());
        this.model = model;
        this.stages = model.stages();
        this.dense = new DenseStack(backend, model.dense(), model.loss());
        int n = stages.size();
        this.outputs = new DeviceArray[n];
        this.gradients = new DeviceArray[n];
        this.exampleGradients = new DeviceArray[n];
        this.exampleBiasGradients = new DeviceArray[n];
        int unfold = 0;
        int gram = 0;
        int positions = 1;
        for (ConvNetModel.Stage s : stages) {
            if (s instanceof ConvNetModel.Convolution c) {
                ConvShape shape = c.shape();
                unfold = Math.max(unfold, shape.taps() * shape.positions());
                positions = Math.max(positions, shape.positions());
                if (ghostNorms(shape)) {
                    gram = Math.max(gram, shape.positions() * shape.positions());
                }
            }
        }
        this.unfoldedLength = unfold;
        this.gramLength = gram;
        this.maxPositions = positions;
    }

    public ConvNetModel model() {
        return model;
    }

    /**
     * Whether a convolution's norms come from Gram matrices (about {@code T^2 (K + n)} multiply-adds per example)
     * rather than from its materialised gradient ({@code T K n}): the rule of dpdl4j's CPU engine
     * ({@code org.dpdl4j.optim.layers.NormStrategy.CHEAPER}), so that both engines compute the same way.
     */
    public static boolean ghostNorms(ConvShape s) {
        return (double) s.positions() * (s.taps() + s.outC()) < (double) s.taps() * s.outC();
    }

    @Override
    void compute(boolean clipping, float clip) {
        DeviceParameters p = parameters();
        Convolutions convs = backend.convolutions();
        Kernels k = backend.kernels();
        DeviceArray in = x;
        for (int s = 0; s < stages.size(); s++) {
            ConvShape shape = stages.get(s).shape();
            DeviceArray out = slice(outputs[s], shape.outSize());
            if (stages.get(s) instanceof ConvNetModel.Convolution c) {
                convs.forward(shape, b, in, weights(p.values(), c), out);
                k.biasActivation(out, c.hasBias() ? p.values().slice(c.biasOffset(), shape.outC()) : null,
                        b * shape.outSize(), shape.positions(), shape.outC(), c.activation());
            } else {
                convs.maxPool(shape, b, in, out);
            }
            in = out;
        }
        DeviceArray flat = in;
        int last = stages.size() - 1;
        dense.forward(p.values(), flat, b, y, loss);
        dense.backward(p.values(), slice(gradients[last], stages.get(last).shape().outSize()));
        for (int s = last; s >= 0; s--) {
            ConvShape shape = stages.get(s).shape();
            DeviceArray grad = slice(gradients[s], shape.outSize());
            DeviceArray below = s == 0 ? null : slice(gradients[s - 1], shape.inSize());
            if (stages.get(s) instanceof ConvNetModel.Convolution c) {
                k.activationBackprop(grad, slice(outputs[s], shape.outSize()), b * shape.outSize(), c.activation());
                if (below != null) {
                    convs.backwardData(shape, b, weights(p.values(), c), grad, below);
                }
            } else if (below != null) {
                convs.maxPoolBackward(shape, b, input(s), slice(outputs[s], shape.outSize()), grad, below);
            }
        }
        DeviceArray scale = ones;
        if (clipping) {
            dense.addGhostNorms(sq, flat, null, true);
            for (int s = 0; s < stages.size(); s++) {
                if (stages.get(s) instanceof ConvNetModel.Convolution c) {
                    addNorms(s, c);
                }
            }
            k.clipFactors(sq, norms, factors, b, clip);
            dense.scaleErrors(factors);
            scale = factors;
        }
        dense.writeGradients(p.gradient(), flat, ones);
        for (int s = 0; s < stages.size(); s++) {
            if (stages.get(s) instanceof ConvNetModel.Convolution c) {
                writeGradient(s, c, clipping, scale);
            }
        }
    }

    /** Adds a convolution's per-example squared norms (weights and bias) to sq, from its unscaled errors. */
    private void addNorms(int s, ConvNetModel.Convolution c) {
        ConvShape shape = c.shape();
        int t = shape.positions();
        int taps = shape.taps();
        int n = shape.outC();
        Blas blas = backend.blas();
        Kernels k = backend.kernels();
        DeviceArray errors = slice(gradients[s], shape.outSize());
        k.im2col(input(s), unfolded, shape, b);
        if (ghostNorms(shape)) {
            blas.gemmStridedBatched(false, true, t, t, taps, 1f, unfolded, t, (long) taps * t, unfolded, t, (long) taps * t,
                    0f, gramInputs, t, (long) t * t, b);
            blas.gemmStridedBatched(false, true, t, t, n, 1f, errors, t, (long) n * t, errors, t, (long) n * t, 0f,
                    gramErrors, t, (long) t * t, b);
            k.addRowDots(sq, gramInputs, gramErrors, t * t, b, false, lanes);
        } else {
            blas.gemmStridedBatched(true, false, taps, n, t, 1f, unfolded, t, (long) taps * t, errors, t, (long) n * t, 0f,
                    exampleGradients[s], taps, (long) taps * n, b);
            k.addRowDots(sq, exampleGradients[s], exampleGradients[s], taps * n, b, false, lanes);
        }
        if (c.hasBias()) {
            DeviceArray biases = exampleBiases(s, shape);
            k.addRowDots(sq, biases, biases, n, b, false, lanes);
        }
    }

    /**
     * A convolution's (clipped) gradient sum: the materialised gradients weighted by the factors, or cuDNN's filter
     * gradient of the scaled errors; the bias as the examples' bias gradients weighted by the factors (ones without
     * clipping).
     */
    private void writeGradient(int s, ConvNetModel.Convolution c, boolean clipping, DeviceArray scale) {
        ConvShape shape = c.shape();
        int n = shape.outC();
        int weightCount = n * shape.taps();
        DeviceParameters p = parameters();
        DeviceArray gradW = p.gradient().slice(c.weightOffset(), weightCount);
        DeviceArray errors = slice(gradients[s], shape.outSize());
        if (clipping && !ghostNorms(shape)) {
            backend.blas().gemv(false, weightCount, b, 1f, exampleGradients[s], weightCount, scale, 0f, gradW);
        } else {
            if (clipping) {
                backend.kernels().scaleByExample(errors, b * shape.outSize(), shape.outSize(), b, scale);
            }
            backend.convolutions().backwardFilter(shape, b, input(s), errors, gradW);
        }
        if (c.hasBias()) {
            DeviceArray perExample = clipping ? exampleBiasGradients[s] : exampleBiases(s, shape);
            backend.blas().gemv(false, n, b, 1f, perExample, n, clipping ? scale : ones, 0f,
                    p.gradient().slice(c.biasOffset(), n));
        }
    }

    /** The examples' bias gradients [n, b] (column i: example i's sums of its errors over the positions). */
    private DeviceArray exampleBiases(int s, ConvShape shape) {
        int t = shape.positions();
        DeviceArray out = exampleBiasGradients[s];
        backend.blas().gemv(true, t, shape.outC() * b, 1f, slice(gradients[s], shape.outSize()), t,
                positionOnes.slice(0, t), 0f, out);
        return out;
    }

    /** The input of stage s: the batch's features or the previous stage's output. */
    private DeviceArray input(int s) {
        return s == 0 ? x : slice(outputs[s - 1], stages.get(s - 1).shape().outSize());
    }

    private DeviceArray slice(DeviceArray perBatch, int perExample) {
        return perBatch.slice(0, (long) b * perExample);
    }

    private static DeviceArray weights(DeviceArray flat, ConvNetModel.Convolution c) {
        return flat.slice(c.weightOffset(), (long) c.shape().outC() * c.shape().taps());
    }

    /** The most lanes a convolution's per-example norm takes (its Gram matrices, materialised gradient or bias). */
    private int mostLanes() {
        int most = 1;
        for (ConvNetModel.Stage s : stages) {
            if (s instanceof ConvNetModel.Convolution c) {
                ConvShape shape = c.shape();
                long length = ghostNorms(shape) ? (long) shape.positions() * shape.positions()
                        : (long) shape.outC() * shape.taps();
                most = Math.max(most, Math.max(Kernels.lanes(length), Kernels.lanes(shape.outC())));
            }
        }
        return most;
    }

    @Override
    long unitsPerExample() {
        long units = Math.max(Math.max(dense.unitsPerExample(), mostLanes()), Math.max(unfoldedLength, gramLength));
        for (ConvNetModel.Stage s : stages) {
            units = Math.max(units, Math.max(s.shape().inSize(), s.shape().outSize()));
            units = Math.max(units, (long) s.shape().outC() * s.shape().taps());
        }
        return units;
    }

    @Override
    void allocate(int capacity) {
        dense.allocate(capacity);
        for (int s = 0; s < stages.size(); s++) {
            ConvShape shape = stages.get(s).shape();
            outputs[s] = backend.allocate((long) capacity * shape.outSize());
            gradients[s] = backend.allocate((long) capacity * shape.outSize());
            if (stages.get(s) instanceof ConvNetModel.Convolution c) {
                if (!ghostNorms(shape)) {
                    exampleGradients[s] = backend.allocate((long) capacity * shape.outC() * shape.taps());
                }
                if (c.hasBias()) {
                    exampleBiasGradients[s] = backend.allocate((long) capacity * shape.outC());
                }
            }
        }
        unfolded = backend.allocate(Math.max(1L, (long) capacity * unfoldedLength));
        gramInputs = backend.allocate(Math.max(1L, (long) capacity * gramLength));
        gramErrors = backend.allocate(Math.max(1L, (long) capacity * gramLength));
        factors = backend.allocate(capacity);
        lanes = backend.allocate((long) capacity * mostLanes());
        positionOnes = backend.allocate(maxPositions);
        backend.fill(positionOnes, 1f);
    }

    @Override
    void free() {
        dense.free();
        for (DeviceArray[] perStage : List.of(outputs, gradients, exampleGradients, exampleBiasGradients)) {
            for (int s = 0; s < perStage.length; s++) {
                if (perStage[s] != null) {
                    backend.free(perStage[s]);
                    perStage[s] = null;
                }
            }
        }
        for (DeviceArray a : new DeviceArray[]{unfolded, gramInputs, gramErrors, factors, lanes, positionOnes}) {
            backend.free(a);
        }
    }
}
