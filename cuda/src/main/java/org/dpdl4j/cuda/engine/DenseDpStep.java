package org.dpdl4j.cuda.engine;

import org.bytedeco.javacpp.FloatPointer;

import java.util.List;

/**
 * The DP step of a {@link DenseModel} on a {@link Backend}, with dpdl4j's ghost-norm algorithm: one forward and one
 * backward pass over the batch, each example's squared gradient norm as the sum over layers of
 * {@code (||a_i||^2 + 1) ||delta_i||^2}, every error row scaled by {@code c_i = min(1, C / ||g_i||)}, and the clipped sum
 * {@code A^T diag(c) Delta} per layer as one product, the bias gradients and the loss sum as matrix-vector products; no
 * per-example loop on the host, no per-example gradient anywhere.
 *
 * <p>The parameters, the gradient, the updater state and the current batch live in the backend's memory and stay there
 * across steps: {@link #loadBatch} copies a batch in, {@link #clippedSum} computes, {@link DeviceParameters#step} adds
 * the noise and takes the update on the device, and only what a caller reads ({@link #measures}, the gradient or the
 * parameters through {@link #parameters()}) comes back. Activations and errors are column-major [b, n]; the batch's features and labels are row-major as the host
 * holds them, and the first layer's products read them transposed instead of copying them.
 *
 * <p>Not thread-safe; one instance per model. Buffers grow to the largest batch seen.
 */
public final class DenseDpStep implements AutoCloseable {
    private final Backend backend;
    private final DenseModel model;
    private final List<DenseLayer> layers;
    /** Column offset of each layer's error in the error block (prefix sums of the widths). */
    private final int[] errorColumn;
    private final int totalUnits;
    private final DeviceParameters parameters;
    private final DeviceArray params;
    private final DeviceArray grad;

    private int capacity;
    private int b;
    private boolean hasFeatureNorms;
    private boolean clipped;
    private float[] normsHost = new float[0];
    private final float[] scalar = new float[1];
    private DeviceArray x;
    private DeviceArray y;
    private DeviceArray xSq;
    private DeviceArray[] activations;
    private DeviceArray errors;
    private DeviceArray sq;
    private DeviceArray norms;
    private DeviceArray loss;
    private DeviceArray ones;
    private final DeviceArray lossSum;

    public DenseDpStep(Backend backend, DenseModel model) {
        this.backend = backend;
        this.model = model;
        this.layers = model.layers();
        this.errorColumn = new int[layers.size()];
        int t = 0;
        for (int l = 0; l < layers.size(); l++) {
            errorColumn[l] = t;
            t += layers.get(l).nOut();
        }
        this.totalUnits = t;
        // parameters outside every layer (none in DL4J's dense networks) keep a zero gradient
        this.parameters = new DeviceParameters(backend, (int) model.numParams());
        this.params = parameters.values();
        this.grad = parameters.gradient();
        this.lossSum = backend.allocate(1);
        this.activations = new DeviceArray[layers.size() - 1];
    }

    public DenseModel model() {
        return model;
    }

    public Backend backend() {
        return backend;
    }

    /** The parameters (DL4J's flat layout), their gradient and updater state, and the step that moves them. */
    public DeviceParameters parameters() {
        return parameters;
    }

    /** The examples in the current batch. */
    public int batchSize() {
        return b;
    }

    /**
     * Copies a batch into the backend's memory: features row-major [b, nIn], labels row-major [b, nOut], and optionally
     * each example's squared feature norm (which saves the first layer's norm reduction).
     */
    public void loadBatch(float[] features, float[] labels, float[] featureSquaredNorms, int batch) {
        prepare(batch, featureSquaredNorms != null, features.length, labels.length,
                featureSquaredNorms == null ? batch : featureSquaredNorms.length);
        if (batch == 0) {
            return;
        }
        backend.upload(features, 0, x.slice(0, (long) batch * model.nIn()));
        backend.upload(labels, 0, y.slice(0, (long) batch * model.nOut()));
        if (featureSquaredNorms != null) {
            backend.upload(featureSquaredNorms, 0, xSq.slice(0, batch));
        }
    }

    /** As {@link #loadBatch(float[], float[], float[], int)} from host memory (e.g. ND4J buffers); norms may be null. */
    public void loadBatch(FloatPointer features, FloatPointer labels, FloatPointer featureSquaredNorms, int batch) {
        long nx = (long) batch * model.nIn();
        long ny = (long) batch * model.nOut();
        prepare(batch, featureSquaredNorms != null, nx, ny, batch);
        if (batch == 0) {
            return;
        }
        backend.upload(features, x.slice(0, nx));
        backend.upload(labels, y.slice(0, ny));
        if (featureSquaredNorms != null) {
            backend.upload(featureSquaredNorms, xSq.slice(0, batch));
        }
    }

    private void prepare(int batch, boolean norms, long featureCount, long labelCount, long normCount) {
        if (batch < 0) {
            throw new IllegalArgumentException("batch size must be >= 0, got " + batch);
        }
        if (featureCount < (long) batch * model.nIn() || labelCount < (long) batch * model.nOut() || normCount < batch) {
            throw new IllegalArgumentException("a batch of " + batch + " examples needs " + (long) batch * model.nIn()
                    + " feature values, " + (long) batch * model.nOut() + " label values and " + batch
                    + " squared norms; got " + featureCount + ", " + labelCount + " and " + normCount);
        }
        if ((long) batch * Math.max(totalUnits, model.nIn()) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a batch of " + batch + " examples is too large for one step of this"
                    + " network; split it");
        }
        ensureCapacity(batch);
        this.b = batch;
        this.hasFeatureNorms = norms;
    }

    /**
     * The clipped gradient sum of the loaded batch into {@link #gradient()}, each example's norm and the loss sum
     * (read them with {@link #measures}). An infinite {@code clip} computes the plain sum and no norms.
     */
    public void clippedSum(double clip) {
        if (!(clip > 0)) {
            throw new IllegalArgumentException("clip norm must be > 0 (or +infinity for no clipping), got " + clip);
        }
        clipped = !Double.isInfinite(clip);
        if (b == 0) {
            backend.fill(grad, 0f);
            backend.fill(lossSum, 0f);
            return;
        }
        Blas blas = backend.blas();
        Kernels k = backend.kernels();
        int depth = layers.size();
        for (int l = 0; l < depth; l++) {
            forward(l, blas, k);
        }
        for (int l = depth - 1; l > 0; l--) {
            DenseLayer layer = layers.get(l);
            DeviceArray below = error(l - 1);
            blas.gemm(false, true, b, layer.nIn(), layer.nOut(), 1f, error(l), b, weights(params, layer), layer.nIn(), 0f,
                    below, b);
            k.activationBackprop(below, activations[l - 1].slice(0, (long) b * layer.nIn()), b * layer.nIn(),
                    layers.get(l - 1).activation());
        }
        if (clipped) {
            for (int l = 0; l < depth; l++) {
                DenseLayer layer = layers.get(l);
                boolean first = l == 0;
                DeviceArray input = first ? x : activations[l - 1];
                k.addGhostNorms(sq, input, first ? layer.nIn() : 1, first ? 1 : b,
                        first && hasFeatureNorms ? xSq : null, error(l), b, layer.nIn(), layer.nOut(), layer.hasBias(), first);
            }
            k.clipErrors(errors.slice(0, (long) b * totalUnits), b, totalUnits, sq, norms, (float) clip);
        }
        for (int l = 0; l < depth; l++) {
            DenseLayer layer = layers.get(l);
            DeviceArray e = error(l);
            if (l == 0) {
                blas.gemm(false, false, layer.nIn(), layer.nOut(), b, 1f, x, layer.nIn(), e, b, 0f, weights(grad, layer),
                        layer.nIn());
            } else {
                blas.gemm(true, false, layer.nIn(), layer.nOut(), b, 1f, activations[l - 1], b, e, b, 0f,
                        weights(grad, layer), layer.nIn());
            }
            if (layer.hasBias()) {
                blas.gemv(true, b, layer.nOut(), 1f, e, b, ones, 0f, grad.slice(layer.biasOffset(), layer.nOut()));
            }
        }
        blas.gemv(true, b, 1, 1f, loss, b, ones, 0f, lossSum);
    }

    /** z = a W + bias, then the activation (hidden layers) or the loss and its error (output layer). */
    private void forward(int l, Blas blas, Kernels k) {
        DenseLayer layer = layers.get(l);
        boolean output = l == layers.size() - 1;
        DeviceArray z = output ? error(l) : activations[l].slice(0, (long) b * layer.nOut());
        if (l == 0) {
            blas.gemm(true, false, b, layer.nOut(), layer.nIn(), 1f, x, layer.nIn(), weights(params, layer), layer.nIn(),
                    0f, z, b);
        } else {
            blas.gemm(false, false, b, layer.nOut(), layer.nIn(), 1f, activations[l - 1], b, weights(params, layer),
                    layer.nIn(), 0f, z, b);
        }
        DeviceArray bias = layer.hasBias() ? params.slice(layer.biasOffset(), layer.nOut()) : null;
        k.biasActivation(z, bias, b, layer.nOut(), output ? Activation.IDENTITY : layer.activation());
        if (output) {
            k.outputLoss(model.loss(), z, y, loss, b, layer.nOut());
        }
    }

    /** Each example's norm (null without clipping) and the loss sum of the last {@link #clippedSum}; waits for them. */
    public StepMeasures measures() {
        float[] out = null;
        if (clipped && b > 0) {
            if (normsHost.length != b) {
                normsHost = new float[b];
            }
            backend.download(norms.slice(0, b), normsHost, 0);
            out = normsHost;
        }
        backend.download(lossSum, scalar, 0);
        return new StepMeasures(out, scalar[0]);
    }

    private DeviceArray error(int l) {
        return errors.slice((long) b * errorColumn[l], (long) b * layers.get(l).nOut());
    }

    private static DeviceArray weights(DeviceArray flat, DenseLayer layer) {
        return flat.slice(layer.weightOffset(), (long) layer.nIn() * layer.nOut());
    }

    private void ensureCapacity(int batch) {
        if (batch <= capacity) {
            return;
        }
        freeBatchBuffers();
        int c = Math.max(batch, Math.min(2 * capacity, Integer.MAX_VALUE / Math.max(totalUnits, model.nIn())));
        x = backend.allocate((long) c * model.nIn());
        y = backend.allocate((long) c * model.nOut());
        xSq = backend.allocate(c);
        for (int l = 0; l < activations.length; l++) {
            activations[l] = backend.allocate((long) c * layers.get(l).nOut());
        }
        errors = backend.allocate((long) c * totalUnits);
        sq = backend.allocate(c);
        norms = backend.allocate(c);
        loss = backend.allocate(c);
        ones = backend.allocate(c);
        backend.fill(ones, 1f);
        capacity = c;
    }

    private void freeBatchBuffers() {
        if (capacity == 0) {
            return;
        }
        for (DeviceArray a : new DeviceArray[]{x, y, xSq, errors, sq, norms, loss, ones}) {
            backend.free(a);
        }
        for (DeviceArray a : activations) {
            backend.free(a);
        }
        capacity = 0;
    }

    /** Frees the device memory (the backend stays open: its owner closes it). */
    @Override
    public void close() {
        freeBatchBuffers();
        parameters.close();
        backend.free(lossSum);
    }
}
