package org.dpdl4j.optim;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;
import java.util.List;

/**
 * The clipped gradient sum of one float32 network of dense layers on the CPU, with the same ghost-norm algorithm as
 * {@link PerExampleGradients} but a different division of labour: each large matrix product is one BLAS call
 * through ND4J, and everything else (bias, activations, loss, the error's way back through small layers, the
 * per-example norms, the clipping factors, the bias gradients) runs as plain Java loops over the batch.
 *
 * <p>Why: with JavaCPP's physical-memory check on, every ND4J call that creates an array or an op context costs
 * 10 to 50 microseconds, however little it computes. The ND4J engine makes about 30 such calls per step, which was
 * most of the step of a logistic regression (0.9 ms against 0.06 ms of arithmetic) and a third of an MLP's. Here a
 * layer's products go to BLAS only when they are large ({@link #BLAS_MULTIPLY_ADDS} multiply-adds or more at the
 * batch's size); a logistic regression step then makes no ND4J call at all, and the MNIST MLP makes five.
 *
 * <p>Results equal the ND4J engine's to float rounding (the sums run in another order; exp and tanh come from Java),
 * not bit for bit. Networks in double precision, on another backend, or with an activation or loss that has no
 * kernel in {@link HostActivation} / {@link HostOutputLoss} stay with {@link PerExampleGradients}: {@link #supports}
 * says which. One instance keeps scratch arrays sized to the largest batch seen; it is not thread-safe, and the arrays
 * of the {@link ClippedBatch} it returns are its own, overwritten by its next call.
 */
final class HostDenseGradients implements ExampleGradients {
    /** From this many multiply-adds in a layer's forward product (batch x nIn x nOut), its products go to BLAS. */
    static final long BLAS_MULTIPLY_ADDS = 1L << 21;

    private final DenseNetworkSpec spec;
    private final List<DenseLayerSpec> layers;
    private final HostActivation[] activations;
    private final HostOutputLoss output;
    private final LayerViews views;
    private final Scratch[] scratch;
    private final PrefixViews normsOut = new PrefixViews();
    private final PrefixViews lossSum = new PrefixViews();
    private float[][] inputRows;
    private float[][] labels;
    private float[] scores;
    private float[] squaredNorms;
    private float[] termNorms;
    private float[] errorNorms;
    private float[] factors;

    /** Per layer: its outputs (activations, or the error at the output layer), error, weights and gradient column. */
    private static final class Scratch {
        float[][] out;
        float[][] error;
        float[][] weights;
        float[] bias;
        float[] biasGradient;
        float[] gradientColumn;
        float[][] inputRows;
        INDArray ndInput;
    }

    private HostDenseGradients(DenseNetworkSpec spec, HostActivation[] activations, HostOutputLoss output) {
        this.spec = spec;
        this.layers = spec.layers();
        this.activations = activations;
        this.output = output;
        this.views = new LayerViews(layers);
        this.scratch = new Scratch[layers.size()];
        for (int l = 0; l < scratch.length; l++) {
            scratch[l] = new Scratch();
            scratch[l].bias = new float[(int) layers.get(l).nOut()];
            scratch[l].biasGradient = new float[(int) layers.get(l).nOut()];
            scratch[l].gradientColumn = new float[(int) layers.get(l).nIn()];
        }
    }

    /** The engine for a network, or null when {@link #supports} says no. */
    static HostDenseGradients of(DenseNetworkSpec spec) {
        if (spec.dataType() != DataType.FLOAT || !Nd4j.getEnvironment().isCPU()) {
            return null;
        }
        List<DenseLayerSpec> layers = spec.layers();
        HostActivation[] hidden = new HostActivation[layers.size() - 1];
        for (int l = 0; l < hidden.length; l++) {
            hidden[l] = HostActivation.of(layers.get(l).activation());
            if (hidden[l] == null || layers.get(l).nOut() > Integer.MAX_VALUE || layers.get(l).nIn() > Integer.MAX_VALUE) {
                return null;
            }
        }
        HostOutputLoss loss = HostOutputLoss.of(spec.output().activation(), spec.loss());
        return loss == null ? null : new HostDenseGradients(spec, hidden, loss);
    }

    /** Whether this engine computes the network: float32 on the CPU backend, with a kernel for every activation and the loss. */
    static boolean supports(DenseNetworkSpec spec) {
        return of(spec) != null;
    }

    @Override
    public ClippedBatch sumClipped(INDArray params, INDArray features, INDArray labelArray, INDArray featureSquaredNorms,
                                   double clipNorm, INDArray gradOut) {
        if (!(clipNorm > 0)) {
            throw new IllegalArgumentException("clip norm must be > 0 (or +infinity for no clipping), got " + clipNorm);
        }
        checkShapes(params, features, labelArray, featureSquaredNorms, gradOut);
        int b = (int) features.size(0);
        if (b == 0) {
            gradOut.assign(0);
            INDArray none = Nd4j.createUninitialized(DataType.FLOAT, 0);
            return new ClippedBatch(Double.isInfinite(clipNorm) ? null : none, Nd4j.zeros(DataType.FLOAT, 1), clipNorm);
        }
        int depth = layers.size();
        int nIn0 = (int) spec.nIn();
        int nOut = (int) spec.nOut();
        INDArray x = denseFloatRows(features);
        boolean[] blas = new boolean[depth];
        for (int l = 0; l < depth; l++) {
            DenseLayerSpec layer = layers.get(l);
            blas[l] = (long) b * layer.nIn() * layer.nOut() >= BLAS_MULTIPLY_ADDS;
        }
        ensureCapacity(b, blas);
        if (!blas[0] || (featureSquaredNorms == null && !Double.isInfinite(clipNorm))) {
            HostBuffers.readRows(x, b, nIn0, inputRows);
        }
        HostBuffers.readRowsAsColumns(denseFloatRows(labelArray), b, nOut, labels);

        for (int l = 0; l < depth; l++) {
            forward(l, params, x, b, blas[l]);
        }
        for (int l = depth - 1; l > 0; l--) {
            backToInput(l, params, b, blas[l]);
        }

        INDArray norms = null;
        if (!Double.isInfinite(clipNorm)) {
            norms = clip(clipNorm, featureSquaredNorms, b);
        }
        for (int l = 0; l < depth; l++) {
            writeGradients(l, x, gradOut, b, blas[l]);
        }
        INDArray lossSums = lossSum.first(DataType.FLOAT, 1);
        lossSums.putScalar(0, ColumnKernels.sum(scores, b));
        for (Scratch s : scratch) {
            s.ndInput = null;   // a workspace array of this step only
        }
        return new ClippedBatch(norms, lossSums, clipNorm);
    }

    /** z = a W + bias, then the activation (hidden layers) or the loss and its error (output layer). */
    private void forward(int l, INDArray params, INDArray x, int b, boolean blas) {
        DenseLayerSpec layer = layers.get(l);
        Scratch s = scratch[l];
        int nIn = (int) layer.nIn();
        int nOut = (int) layer.nOut();
        if (blas) {
            INDArray input = l == 0 ? x : ndColumns(scratch[l - 1].out, b, nIn);
            INDArray z = Nd4j.createUninitialized(DataType.FLOAT, new long[]{b, nOut}, 'f');
            Nd4j.gemm(input, views.weights(params, layer), z, false, false, 1.0, 0.0);
            HostBuffers.readColumns(z, b, nOut, s.out);
            s.ndInput = input;
        } else {
            readWeights(params, layer, s);
            if (l == 0) {
                ColumnKernels.rowsTimesWeights(inputRows, nIn, s.weights, s.out, nOut, b);
            } else {
                ColumnKernels.columnsTimesWeights(scratch[l - 1].out, nIn, s.weights, s.out, nOut, b);
            }
        }
        if (layer.hasBias()) {
            HostBuffers.read(params, layer.biasOffset(), s.bias, nOut);
            for (int k = 0; k < nOut; k++) {
                float[] o = s.out[k];
                float bk = s.bias[k];
                for (int i = 0; i < b; i++) {
                    o[i] += bk;
                }
            }
        }
        if (l < layers.size() - 1) {
            for (int k = 0; k < nOut; k++) {
                activations[l].apply(s.out[k], b);
            }
        } else {
            output.lossAndError(s.out, labels, nOut, b, scores);
            s.error = s.out;
        }
    }

    /** The error at layer l's input (layer l - 1's output), through layer l - 1's activation. */
    private void backToInput(int l, INDArray params, int b, boolean blas) {
        DenseLayerSpec layer = layers.get(l);
        Scratch s = scratch[l];
        Scratch below = scratch[l - 1];
        int nIn = (int) layer.nIn();
        int nOut = (int) layer.nOut();
        if (blas) {
            INDArray delta = ndColumns(s.error, b, nOut);
            INDArray eps = Nd4j.createUninitialized(DataType.FLOAT, new long[]{b, nIn}, 'f');
            Nd4j.gemm(delta, views.weights(params, layer), eps, false, true, 1.0, 0.0);
            HostBuffers.readColumns(eps, b, nIn, below.error);
        } else {
            ColumnKernels.columnsTimesWeightsTransposed(s.error, nOut, s.weights, below.error, nIn, b);
        }
        for (int j = 0; j < nIn; j++) {
            activations[l - 1].backprop(below.out[j], below.error[j], b);
        }
    }

    /** Per-example norms from the ghost identity, then every error scaled by min(1, C / norm). */
    private INDArray clip(double clipNorm, INDArray featureSquaredNorms, int b) {
        Arrays.fill(squaredNorms, 0, b, 0f);
        for (int l = 0; l < layers.size(); l++) {
            DenseLayerSpec layer = layers.get(l);
            Arrays.fill(termNorms, 0, b, 0f);
            if (l > 0) {
                ColumnKernels.addSquaredNorms(scratch[l - 1].out, (int) layer.nIn(), b, termNorms);
            } else if (featureSquaredNorms != null) {
                readVector(featureSquaredNorms, b, termNorms);
            } else {
                for (int i = 0; i < b; i++) {
                    termNorms[i] = ColumnKernels.dot(inputRows[i], inputRows[i], (int) layer.nIn());
                }
            }
            if (layer.hasBias()) {
                for (int i = 0; i < b; i++) {
                    termNorms[i] += 1f;
                }
            }
            Arrays.fill(errorNorms, 0, b, 0f);
            ColumnKernels.addSquaredNorms(scratch[l].error, (int) layer.nOut(), b, errorNorms);
            for (int i = 0; i < b; i++) {
                squaredNorms[i] += termNorms[i] * errorNorms[i];
            }
        }
        float c = (float) clipNorm;
        for (int i = 0; i < b; i++) {
            float norm = (float) Math.sqrt(squaredNorms[i]);
            squaredNorms[i] = norm;
            factors[i] = Math.min(c / norm, 1f);   // a zero norm gives C / 0 = +infinity, hence 1
        }
        for (int l = 0; l < layers.size(); l++) {
            ColumnKernels.scaleRows(scratch[l].error, (int) layers.get(l).nOut(), b, factors);
        }
        INDArray norms = normsOut.first(DataType.FLOAT, b);
        HostBuffers.write(squaredNorms, b, norms, 0);
        return norms;
    }

    /** dW = input^T error and db = column sums of the error, into the gradient vector. */
    private void writeGradients(int l, INDArray x, INDArray gradOut, int b, boolean blas) {
        DenseLayerSpec layer = layers.get(l);
        Scratch s = scratch[l];
        int nIn = (int) layer.nIn();
        int nOut = (int) layer.nOut();
        if (blas) {
            INDArray delta = ndColumns(s.error, b, nOut);
            Nd4j.gemm(s.ndInput, delta, views.weights(gradOut, layer), true, false, 1.0, 0.0);
        } else {
            float[][] rows = inputRows;
            if (l > 0) {
                ColumnKernels.columnsToRows(scratch[l - 1].out, nIn, b, s.inputRows);
                rows = s.inputRows;
            }
            for (int k = 0; k < nOut; k++) {
                ColumnKernels.weightGradientColumn(rows, nIn, s.error[k], b, s.gradientColumn);
                HostBuffers.write(s.gradientColumn, nIn, gradOut, layer.weightOffset() + (long) k * nIn);
            }
        }
        if (layer.hasBias()) {
            for (int k = 0; k < nOut; k++) {
                s.biasGradient[k] = ColumnKernels.sum(s.error[k], b);
            }
            HostBuffers.write(s.biasGradient, nOut, gradOut, layer.biasOffset());
        }
    }

    /** W's columns (DL4J stores W column-major, so column k is nIn consecutive parameters). */
    private static void readWeights(INDArray params, DenseLayerSpec layer, Scratch s) {
        int nIn = (int) layer.nIn();
        for (int k = 0; k < layer.nOut(); k++) {
            HostBuffers.read(params, layer.weightOffset() + (long) k * nIn, s.weights[k], nIn);
        }
    }

    /** A column-major [b, n] float array of this step's workspace holding the given columns. */
    private static INDArray ndColumns(float[][] columns, int b, int n) {
        INDArray a = Nd4j.createUninitialized(DataType.FLOAT, new long[]{b, n}, 'f');
        HostBuffers.writeColumns(columns, b, n, a);
        return a;
    }

    private static void readVector(INDArray v, int b, float[] dst) {
        INDArray flat = v.dataType() == DataType.FLOAT && v.isVector() && v.elementWiseStride() == 1 ? v
                : v.castTo(DataType.FLOAT).dup('c');
        HostBuffers.read(flat, 0, dst, b);
    }

    private static INDArray denseFloatRows(INDArray a) {
        if (a.dataType() == DataType.FLOAT && HostBuffers.isDenseRowMajor(a)) {
            return a;
        }
        return a.castTo(DataType.FLOAT).dup('c');
    }

    private void ensureCapacity(int b, boolean[] blas) {
        int nIn0 = (int) spec.nIn();
        int nOut = (int) spec.nOut();
        inputRows = ColumnKernels.atLeast(inputRows, b, nIn0);
        labels = ColumnKernels.atLeast(labels, nOut, b);
        scores = ColumnKernels.atLeast(scores, b);
        squaredNorms = ColumnKernels.atLeast(squaredNorms, b);
        termNorms = ColumnKernels.atLeast(termNorms, b);
        factors = ColumnKernels.atLeast(factors, b);
        errorNorms = ColumnKernels.atLeast(errorNorms, b);
        for (int l = 0; l < layers.size(); l++) {
            DenseLayerSpec layer = layers.get(l);
            Scratch s = scratch[l];
            int nIn = (int) layer.nIn();
            int n = (int) layer.nOut();
            s.out = ColumnKernels.atLeast(s.out, n, b);
            if (l < layers.size() - 1) {
                s.error = ColumnKernels.atLeast(s.error, n, b);
            }
            if (!blas[l]) {
                s.weights = ColumnKernels.atLeast(s.weights, n, nIn);
                if (l > 0) {
                    s.inputRows = ColumnKernels.atLeast(s.inputRows, b, nIn);
                }
            }
        }
    }

    private void checkShapes(INDArray params, INDArray features, INDArray labelArray, INDArray featureSquaredNorms,
                             INDArray gradOut) {
        if (features.rank() != 2 || features.size(1) != spec.nIn()) {
            throw new IllegalArgumentException("features must be [batch, " + spec.nIn() + "], got shape "
                    + Arrays.toString(features.shape()));
        }
        if (labelArray.rank() != 2 || labelArray.size(0) != features.size(0) || labelArray.size(1) != spec.nOut()) {
            throw new IllegalArgumentException("labels of shape " + Arrays.toString(labelArray.shape())
                    + " do not match features of shape " + Arrays.toString(features.shape()) + " and "
                    + spec.nOut() + " outputs");
        }
        if (params.length() != spec.numParams() || gradOut.length() != spec.numParams()) {
            throw new IllegalArgumentException("parameters (" + params.length() + ") and gradient (" + gradOut.length()
                    + ") must both have the network's " + spec.numParams() + " elements");
        }
        if (params.dataType() != DataType.FLOAT || gradOut.dataType() != DataType.FLOAT
                || !params.isVectorOrScalar() && !(params.rank() == 2 && params.size(0) == 1)
                || params.elementWiseStride() != 1 || gradOut.elementWiseStride() != 1) {
            throw new IllegalArgumentException("parameters and gradient must be contiguous FLOAT vectors");
        }
        if (featureSquaredNorms != null && featureSquaredNorms.length() != features.size(0)) {
            throw new IllegalArgumentException("feature squared norms of shape " + Arrays.toString(featureSquaredNorms.shape())
                    + " do not match the batch of " + features.size(0) + ": give one squared norm per example");
        }
        if (features.size(0) > Integer.MAX_VALUE / Math.max(1, spec.nIn())) {
            throw new IllegalArgumentException("a batch of " + features.size(0) + " rows is too large for one step");
        }
    }
}
