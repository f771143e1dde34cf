package org.dpdl4j.cuda.dl4j;

import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.DenseDpStep;
import org.dpdl4j.cuda.engine.StepMeasures;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.dpdl4j.optim.ExampleGradients;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;

/**
 * dpdl4j's per-example seam ({@link ExampleGradients}) on the engine: each call copies the parameters and the batch to
 * the device, runs the batched clipping there ({@link DenseDpStep#clippedSum}) and copies the clipped sum, the norms and
 * the loss sum back, so that the noise and DL4J's updater run on the host exactly as for the CPU engines. On the
 * reference {@link org.dpdl4j.cuda.engine.JavaBackend} it is the CPU-side check of the whole path.
 *
 * <p>Not thread-safe; close it to free the device memory (the backend is closed with it when it owns it).
 */
public final class CudaExampleGradients implements ExampleGradients, AutoCloseable {
    private final DenseNetworkSpec spec;
    private final Backend backend;
    private final boolean ownsBackend;
    private final DenseDpStep step;

    /**
     * @param ownsBackend whether closing this engine closes the backend too
     * @throws IllegalArgumentException when the engine does not compute the network ({@link DenseModels#whyNot})
     */
    public CudaExampleGradients(DenseNetworkSpec spec, Backend backend, boolean ownsBackend) {
        this.spec = spec;
        this.backend = backend;
        this.ownsBackend = ownsBackend;
        this.step = new DenseDpStep(backend, DenseModels.of(spec));
    }

    /** The backend's device, e.g. {@code NVIDIA H100 80GB HBM3 (sm_90, ...)}. */
    public String describe() {
        return backend.describe();
    }

    @Override
    public ClippedBatch sumClipped(INDArray params, INDArray features, INDArray labels, INDArray featureSquaredNorms,
                                   double clipNorm, INDArray gradOut) {
        if (!(clipNorm > 0)) {
            throw new IllegalArgumentException("clip norm must be > 0 (or +infinity for no clipping), got " + clipNorm);
        }
        checkShapes(params, features, labels, featureSquaredNorms, gradOut);
        int b = (int) features.size(0);
        boolean clipping = !Double.isInfinite(clipNorm);
        if (b == 0) {
            gradOut.assign(0);
            return new ClippedBatch(clipping ? Nd4j.createUninitialized(DataType.FLOAT, 0) : null,
                    Nd4j.zeros(DataType.FLOAT, 1), clipNorm);
        }
        INDArray p = HostArrays.rowMajorFloats(params);
        INDArray x = HostArrays.rowMajorFloats(features);
        INDArray y = HostArrays.rowMajorFloats(labels);
        INDArray xSq = featureSquaredNorms == null || !clipping ? null : HostArrays.rowMajorFloats(featureSquaredNorms);
        step.setParameters(HostArrays.pointer(p));
        step.loadBatch(HostArrays.pointer(x), HostArrays.pointer(y), xSq == null ? null : HostArrays.pointer(xSq), b);
        step.clippedSum(clipNorm);
        if (HostArrays.writable(gradOut)) {
            step.readGradient(HostArrays.pointer(gradOut));
        } else {
            float[] g = new float[(int) spec.numParams()];
            step.readGradient(g);
            gradOut.assign(Nd4j.createFromArray(g).reshape(gradOut.shape()));
        }
        StepMeasures m = step.measures();
        INDArray norms = m.norms() == null ? null : Nd4j.createFromArray(m.norms());
        return new ClippedBatch(norms, Nd4j.createFromArray((float) m.lossSum()), clipNorm);
    }

    private void checkShapes(INDArray params, INDArray features, INDArray labels, INDArray featureSquaredNorms,
                             INDArray gradOut) {
        if (features.rank() != 2 || features.size(1) != spec.nIn()) {
            throw new IllegalArgumentException("features must be [batch, " + spec.nIn() + "], got shape "
                    + Arrays.toString(features.shape()));
        }
        if (labels.rank() != 2 || labels.size(0) != features.size(0) || labels.size(1) != spec.nOut()) {
            throw new IllegalArgumentException("labels of shape " + Arrays.toString(labels.shape()) + " do not match features"
                    + " of shape " + Arrays.toString(features.shape()) + " and " + spec.nOut() + " outputs");
        }
        if (params.length() != spec.numParams() || gradOut.length() != spec.numParams()) {
            throw new IllegalArgumentException("parameters (" + params.length() + ") and gradient (" + gradOut.length()
                    + ") must both have the network's " + spec.numParams() + " elements");
        }
        if (featureSquaredNorms != null && featureSquaredNorms.length() != features.size(0)) {
            throw new IllegalArgumentException("feature squared norms of shape " + Arrays.toString(featureSquaredNorms.shape())
                    + " do not match the batch of " + features.size(0) + ": give one squared norm per example");
        }
        if (features.size(0) > Integer.MAX_VALUE / Math.max(1, Math.max(spec.nIn(), spec.nOut()))) {
            throw new IllegalArgumentException("a batch of " + features.size(0) + " rows is too large for one step");
        }
    }

    @Override
    public void close() {
        step.close();
        if (ownsBackend) {
            backend.close();
        }
    }
}
