package org.dpdl4j.cuda.engine;

import org.bytedeco.javacpp.FloatPointer;

/**
 * The DP step of a model on a {@link Backend}, with dpdl4j's algorithm: one forward and one backward pass over the
 * batch, each example's squared gradient norm without per-example gradients where that is cheaper (ghost norms), every
 * example's contribution scaled by {@code c_i = min(1, C / ||g_i||)}, and the clipped sum; no per-example loop on the
 * host. {@link DenseDpStep} computes networks of dense layers, {@link ConvNetDpStep} convolutional ones.
 *
 * <p>The parameters, the gradient, the updater state ({@link #parameters()}) and the current batch live in the
 * backend's memory and stay there across steps: {@link #loadBatch} copies a batch in, {@link #clippedSum} computes,
 * {@link DeviceParameters#step} adds the noise and takes the update, and only what a caller reads ({@link #measures},
 * the gradient or the parameters) comes back. A batch's features and labels are row-major as the host holds them.
 *
 * <p>Not thread-safe; one instance per model. Buffers grow to the largest batch seen.
 */
public abstract sealed class DpStep implements AutoCloseable permits DenseDpStep, ConvNetDpStep {
    final Backend backend;
    private final DeviceParameters parameters;
    private final int inputWidth;
    private final int labelWidth;
    private float[] normsHost = new float[0];
    private float[] measuredHost = new float[0];
    /** Each example's norm, then each example's loss: one copy brings both back. */
    private DeviceArray measured;
    private int capacity;
    private boolean clipped;
    /** Examples in the current batch. */
    int b;
    /** Whether the batch came with its squared feature norms (in {@link #xSq}). */
    boolean hasFeatureNorms;
    DeviceArray x;
    DeviceArray y;
    DeviceArray xSq;
    DeviceArray sq;
    /** The current batch's norms ([0, b) of {@link #measured}). */
    DeviceArray norms;
    /** The current batch's losses ([b, 2b) of {@link #measured}, right after the norms). */
    DeviceArray loss;
    DeviceArray ones;

    DpStep(Backend backend, long numParams, int inputWidth, int labelWidth) {
        this.backend = backend;
        // parameters outside every layer (none in DL4J's networks) keep a zero gradient
        this.parameters = new DeviceParameters(backend, (int) numParams);
        this.inputWidth = inputWidth;
        this.labelWidth = labelWidth;
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
     * each example's squared feature norm (which saves the first layer's norm reduction, where it has one).
     */
    public void loadBatch(float[] features, float[] labels, float[] featureSquaredNorms, int batch) {
        prepare(batch, featureSquaredNorms != null, features.length, labels.length,
                featureSquaredNorms == null ? batch : featureSquaredNorms.length);
        if (batch == 0) {
            return;
        }
        backend.upload(features, 0, x.slice(0, (long) batch * inputWidth));
        backend.upload(labels, 0, y.slice(0, (long) batch * labelWidth));
        if (featureSquaredNorms != null) {
            backend.upload(featureSquaredNorms, 0, xSq.slice(0, batch));
        }
    }

    /** As {@link #loadBatch(float[], float[], float[], int)} from host memory (e.g. ND4J buffers); norms may be null. */
    public void loadBatch(FloatPointer features, FloatPointer labels, FloatPointer featureSquaredNorms, int batch) {
        long nx = (long) batch * inputWidth;
        long ny = (long) batch * labelWidth;
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

    private void prepare(int batch, boolean withNorms, long featureCount, long labelCount, long normCount) {
        if (batch < 0) {
            throw new IllegalArgumentException("batch size must be >= 0, got " + batch);
        }
        if (featureCount < (long) batch * inputWidth || labelCount < (long) batch * labelWidth || normCount < batch) {
            throw new IllegalArgumentException("a batch of " + batch + " examples needs " + (long) batch * inputWidth
                    + " feature values, " + (long) batch * labelWidth + " label values and " + batch
                    + " squared norms; got " + featureCount + ", " + labelCount + " and " + normCount);
        }
        if ((long) batch * unitsPerExample() > KernelSource.MAX_ELEMENTS) {
            throw new IllegalArgumentException("a batch of " + batch + " examples is too large for one step of this"
                    + " network; split it");
        }
        ensureCapacity(batch);
        this.b = batch;
        this.hasFeatureNorms = withNorms;
        if (batch > 0) {
            norms = measured.slice(0, batch);
            loss = measured.slice(batch, batch);
        }
    }

    /**
     * The clipped gradient sum of the loaded batch into the parameters' gradient, each example's norm and the loss sum
     * (read them with {@link #measures}). An infinite {@code clip} computes the plain sum and no norms.
     */
    public final void clippedSum(double clip) {
        if (!(clip > 0)) {
            throw new IllegalArgumentException("clip norm must be > 0 (or +infinity for no clipping), got " + clip);
        }
        clipped = !Double.isInfinite(clip);
        if (b == 0) {
            backend.fill(parameters.gradient(), 0f);
            return;
        }
        compute(clipped, (float) clip);   // a clip beyond float's range scales nothing but still measures the norms
    }

    /**
     * The model's part of {@link #clippedSum}: the forward pass (each example's loss into {@link #loss}), the backward
     * pass and, when {@code clipping}, the squared norms into {@link #sq}, the norms into {@link #norms} and the scaling
     * by {@code min(1, clip / norm)}; then the (clipped) sum into the parameters' gradient.
     */
    abstract void compute(boolean clipping, float clip);

    /** Floats per example of the largest per-example buffer, for the size check of a batch. */
    abstract long unitsPerExample();

    /** Allocates the model's per-batch buffers for {@code capacity} examples. */
    abstract void allocate(int capacity);

    /** Frees what {@link #allocate} allocated. */
    abstract void free();

    /**
     * Each example's norm (null without clipping) and the loss sum of the last {@link #clippedSum} (the examples' losses
     * summed on the host in double); waits for them. One copy brings the norms and the losses back together.
     */
    public StepMeasures measures() {
        if (b == 0) {
            return new StepMeasures(null, 0.0);
        }
        int from = clipped ? 0 : b;
        int count = 2 * b - from;
        if (measuredHost.length < count) {
            measuredHost = new float[count];
        }
        backend.download(measured.slice(from, count), measuredHost, 0);
        float[] out = null;
        if (clipped) {
            if (normsHost.length != b) {
                normsHost = new float[b];
            }
            System.arraycopy(measuredHost, 0, normsHost, 0, b);
            out = normsHost;
        }
        double lossSum = 0;
        for (int i = count - b; i < count; i++) {
            lossSum += measuredHost[i];
        }
        return new StepMeasures(out, lossSum);
    }

    private void ensureCapacity(int batch) {
        if (batch <= capacity) {
            return;
        }
        freeBatchBuffers();
        int c = (int) Math.max(batch, Math.min(2L * capacity, KernelSource.MAX_ELEMENTS / Math.max(1, unitsPerExample())));
        x = backend.allocate((long) c * inputWidth);
        y = backend.allocate((long) c * labelWidth);
        xSq = backend.allocate(c);
        sq = backend.allocate(c);
        measured = backend.allocate(2L * c);
        ones = backend.allocate(c);
        backend.fill(ones, 1f);
        allocate(c);
        capacity = c;
    }

    private void freeBatchBuffers() {
        if (capacity == 0) {
            return;
        }
        for (DeviceArray a : new DeviceArray[]{x, y, xSq, sq, measured, ones}) {
            backend.free(a);
        }
        free();
        capacity = 0;
    }

    /** Frees the device memory (the backend stays open: its owner closes it). */
    @Override
    public void close() {
        freeBatchBuffers();
        parameters.close();
    }
}
