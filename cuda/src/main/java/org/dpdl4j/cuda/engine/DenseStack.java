package org.dpdl4j.cuda.engine;

import java.util.List;

/**
 * Fully connected layers ending in the output loss, as a step computes them for a batch of b examples: their
 * activations and errors column-major [b, n] (every layer's error in one block, so that one kernel clips them all),
 * the input row-major [b, nIn] as the host holds a batch (or as a convolutional part hands over its flattened output),
 * read transposed by the products rather than copied. The ghost-norm terms {@code (||a_i||^2 + 1) ||delta_i||^2},
 * the clipped sums {@code A^T diag(c) Delta} as one product per layer, the bias gradients as matrix-vector products.
 *
 * <p>Buffers grow to the largest batch; not thread-safe.
 */
final class DenseStack {
    private final Backend backend;
    private final List<DenseLayer> layers;
    private final OutputLoss loss;
    /** Column offset of each layer's error in the error block (prefix sums of the widths). */
    private final int[] errorColumn;
    private final int totalUnits;
    private final DeviceArray[] activations;
    private DeviceArray errors;
    private int b;

    DenseStack(Backend backend, List<DenseLayer> layers, OutputLoss loss) {
        this.backend = backend;
        this.layers = List.copyOf(layers);
        this.loss = loss;
        this.errorColumn = new int[layers.size()];
        int t = 0;
        for (int l = 0; l < layers.size(); l++) {
            errorColumn[l] = t;
            t += layers.get(l).nOut();
        }
        this.totalUnits = t;
        this.activations = new DeviceArray[layers.size() - 1];
    }

    int nIn() {
        return layers.get(0).nIn();
    }

    /** Floats per example of the largest buffer (the error block, or the input). */
    long unitsPerExample() {
        return Math.max(totalUnits, nIn());
    }

    void allocate(int capacity) {
        for (int l = 0; l < activations.length; l++) {
            activations[l] = backend.allocate((long) capacity * layers.get(l).nOut());
        }
        errors = backend.allocate((long) capacity * totalUnits);
    }

    void free() {
        for (DeviceArray a : activations) {
            backend.free(a);
        }
        backend.free(errors);
    }

    /**
     * z = a W + bias, then the activation (hidden layers) or the loss per example and its error (output layer), from
     * the row-major input [b, nIn]; labels row-major [b, nOut].
     */
    void forward(DeviceArray params, DeviceArray input, int batch, DeviceArray labels, DeviceArray lossOut) {
        this.b = batch;
        Blas blas = backend.blas();
        Kernels k = backend.kernels();
        for (int l = 0; l < layers.size(); l++) {
            DenseLayer layer = layers.get(l);
            boolean output = l == layers.size() - 1;
            DeviceArray z = output ? error(l) : activations[l].slice(0, (long) b * layer.nOut());
            if (l == 0) {
                blas.gemm(true, false, b, layer.nOut(), layer.nIn(), 1f, input, layer.nIn(), weights(params, layer),
                        layer.nIn(), 0f, z, b);
            } else {
                blas.gemm(false, false, b, layer.nOut(), layer.nIn(), 1f, activations[l - 1], b, weights(params, layer),
                        layer.nIn(), 0f, z, b);
            }
            DeviceArray bias = layer.hasBias() ? params.slice(layer.biasOffset(), layer.nOut()) : null;
            k.biasActivation(z, bias, b * layer.nOut(), b, layer.nOut(), output ? Activation.IDENTITY : layer.activation());
            if (output) {
                k.outputLoss(loss, z, labels, lossOut, b, layer.nOut());
            }
        }
    }

    /**
     * Every layer's error from the output layer's; with {@code inputGradient} not null, also the loss's gradient with
     * respect to the input, row-major [b, nIn] (for a convolutional part below).
     */
    void backward(DeviceArray params, DeviceArray inputGradient) {
        Blas blas = backend.blas();
        Kernels k = backend.kernels();
        for (int l = layers.size() - 1; l > 0; l--) {
            DenseLayer layer = layers.get(l);
            DeviceArray below = error(l - 1);
            blas.gemm(false, true, b, layer.nIn(), layer.nOut(), 1f, error(l), b, weights(params, layer), layer.nIn(), 0f,
                    below, b);
            k.activationBackprop(below, activations[l - 1].slice(0, (long) b * layer.nIn()), b * layer.nIn(),
                    layers.get(l - 1).activation());
        }
        if (inputGradient != null) {
            DenseLayer first = layers.get(0);
            // (Delta_0 W_0^T)^T written as the column-major [nIn, b] that is the row-major [b, nIn]
            blas.gemm(false, true, first.nIn(), b, first.nOut(), 1f, weights(params, first), first.nIn(), error(0), b, 0f,
                    inputGradient, first.nIn());
        }
    }

    /**
     * Adds each layer's ghost-norm term to sq (the first layer's writes it when {@code writeFirst}); the input's
     * squared row norms come from {@code inputSq} when not null.
     */
    void addGhostNorms(DeviceArray sq, DeviceArray input, DeviceArray inputSq, boolean writeFirst) {
        Kernels k = backend.kernels();
        for (int l = 0; l < layers.size(); l++) {
            DenseLayer layer = layers.get(l);
            boolean first = l == 0;
            k.addGhostNorms(sq, first ? input : activations[l - 1], first ? layer.nIn() : 1, first ? 1 : b,
                    first ? inputSq : null, error(l), b, layer.nIn(), layer.nOut(), layer.hasBias(), first && writeFirst);
        }
    }

    /** Every error row i times min(1, clip / sqrt(sq[i])), norms[i] := sqrt(sq[i]): one kernel for all layers. */
    void clipErrors(DeviceArray sq, DeviceArray norms, float clip) {
        backend.kernels().clipErrors(errors.slice(0, (long) b * totalUnits), b, totalUnits, sq, norms, clip);
    }

    /** Every error row i times factors[i]. */
    void scaleErrors(DeviceArray factors) {
        backend.kernels().scaleByExample(errors.slice(0, (long) b * totalUnits), b * totalUnits, 1, b, factors);
    }

    /** Each layer's gradient sum {@code A^T Delta} and bias sum into grad, from the (scaled) errors. */
    void writeGradients(DeviceArray grad, DeviceArray input, DeviceArray ones) {
        Blas blas = backend.blas();
        for (int l = 0; l < layers.size(); l++) {
            DenseLayer layer = layers.get(l);
            DeviceArray e = error(l);
            if (l == 0) {
                blas.gemm(false, false, layer.nIn(), layer.nOut(), b, 1f, input, layer.nIn(), e, b, 0f, weights(grad, layer),
                        layer.nIn());
            } else {
                blas.gemm(true, false, layer.nIn(), layer.nOut(), b, 1f, activations[l - 1], b, e, b, 0f,
                        weights(grad, layer), layer.nIn());
            }
            if (layer.hasBias()) {
                blas.gemv(true, b, layer.nOut(), 1f, e, b, ones, 0f, grad.slice(layer.biasOffset(), layer.nOut()));
            }
        }
    }

    private DeviceArray error(int l) {
        return errors.slice((long) b * errorColumn[l], (long) b * layers.get(l).nOut());
    }

    private static DeviceArray weights(DeviceArray flat, DenseLayer layer) {
        return flat.slice(layer.weightOffset(), (long) layer.nIn() * layer.nOut());
    }
}
