package org.dpdl4j.cuda.dl4j;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.ConvNetDpStep;
import org.dpdl4j.cuda.engine.ConvNetModel;
import org.dpdl4j.cuda.engine.DenseDpStep;
import org.dpdl4j.cuda.engine.DpStep;
import org.dpdl4j.cuda.engine.DeviceParameters;
import org.dpdl4j.cuda.engine.KernelSource;
import org.dpdl4j.cuda.engine.StepMeasures;
import org.dpdl4j.cuda.engine.StepNoise;
import org.dpdl4j.cuda.engine.UpdateSegment;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.dpdl4j.optim.DeviceUpdater;
import org.dpdl4j.optim.ResidentTraining;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * dpdl4j's per-example seam on the engine (a network of dense layers, or a convolutional one), in two ways. As
 * {@link org.dpdl4j.optim.ExampleGradients} each call copies the parameters and the batch to the device, runs the
 * batched clipping there ({@link DpStep#clippedSum}) and
 * copies the clipped sum, the norms and the loss sum back, so that the noise and DL4J's updater run on the host. As
 * {@link ResidentTraining} the parameters, the updater state and the gradient stay on the device and the whole step
 * runs there, the host's noise copied in. On the reference {@link org.dpdl4j.cuda.engine.JavaBackend} it is the
 * CPU-side check of both paths.
 *
 * <p>Not thread-safe; close it to free the device memory (the backend is closed with it when it owns it).
 */
public final class CudaExampleGradients implements ResidentTraining, AutoCloseable {
    private final Backend backend;
    private final boolean ownsBackend;
    /** Closed once: a second close frees nothing again (cudaFree of a freed address may free another array). */
    private boolean closed;
    private final DpStep step;
    private final long nIn;
    private final long nOut;
    private final long numParams;
    private DeviceUpdater updater;

    /**
     * The engine of a network of dense layers.
     *
     * @param ownsBackend whether closing this engine closes the backend too
     * @throws IllegalArgumentException when the engine does not compute the network ({@link DenseModels#whyNot})
     */
    public CudaExampleGradients(DenseNetworkSpec spec, Backend backend, boolean ownsBackend) {
        this(new DenseDpStep(backend, DenseModels.of(spec)), backend, ownsBackend, spec.nIn(), spec.nOut(), spec.numParams());
    }

    private CudaExampleGradients(DpStep step, Backend backend, boolean ownsBackend, long nIn, long nOut, long numParams) {
        this.step = step;
        this.backend = backend;
        this.ownsBackend = ownsBackend;
        this.nIn = nIn;
        this.nOut = nOut;
        this.numParams = numParams;
    }

    /**
     * The engine of a convolutional network (convolutions and max pooling, then dense layers), whose examples come as
     * flat rows of pixels.
     *
     * @throws IllegalArgumentException when the engine does not compute the network ({@link ConvNetModels#whyNot})
     */
    public static CudaExampleGradients convolutional(MultiLayerNetwork net, Backend backend, boolean ownsBackend) {
        ConvNetModel model = ConvNetModels.of(net);
        return new CudaExampleGradients(new ConvNetDpStep(backend, model), backend, ownsBackend, model.nIn(), model.nOut(),
                model.numParams());
    }

    /** The backend's device, e.g. {@code NVIDIA H100 80GB HBM3 (sm_90, ...)}. */
    public String describe() {
        return backend.describe();
    }

    @Override
    public ClippedBatch sumClipped(INDArray params, INDArray features, INDArray labels, INDArray featureSquaredNorms,
                                   double clipNorm, INDArray gradOut) {
        checkLength(params, "parameters");
        checkLength(gradOut, "gradient");
        INDArray p = HostArrays.rowMajorFloats(params);
        step.parameters().set(HostArrays.pointer(p));
        Reference.reachabilityFence(p);
        ClippedBatch batch = clipAndSum(features, labels, featureSquaredNorms, clipNorm);
        readGradient(gradOut);
        return batch;
    }

    @Override
    public ClippedBatch clipAndSum(INDArray features, INDArray labels, INDArray featureSquaredNorms, double clipNorm) {
        if (!(clipNorm > 0)) {
            throw new IllegalArgumentException("clip norm must be > 0 (or +infinity for no clipping), got " + clipNorm);
        }
        checkShapes(features, labels, featureSquaredNorms);
        int b = (int) features.size(0);
        boolean clipping = !Double.isInfinite(clipNorm);
        if (b == 0) {
            step.loadBatch(new float[0], new float[0], null, 0);
            step.clippedSum(clipNorm);   // a zero gradient
            return new ClippedBatch(null, Nd4j.zeros(DataType.FLOAT, 1), clipNorm);   // no example, no norm
        }
        INDArray x = HostArrays.rowMajorFloats(features);
        INDArray y = HostArrays.rowMajorFloats(labels);
        INDArray xSq = featureSquaredNorms == null || !clipping ? null : HostArrays.rowMajorFloats(featureSquaredNorms);
        step.loadBatch(HostArrays.pointer(x), HostArrays.pointer(y), xSq == null ? null : HostArrays.pointer(xSq), b);
        // the pointers do not keep the arrays (copies, possibly) alive: they must outlive the copies
        Reference.reachabilityFence(x);
        Reference.reachabilityFence(y);
        Reference.reachabilityFence(xSq);
        step.clippedSum(clipNorm);
        StepMeasures m = step.measures();
        INDArray norms = m.norms() == null ? null : Nd4j.createFromArray(m.norms());
        return new ClippedBatch(norms, Nd4j.createFromArray((float) m.lossSum()), clipNorm);
    }

    @Override
    public void load(INDArray params, INDArray updaterState, DeviceUpdater deviceUpdater) {
        checkLength(params, "parameters");
        DeviceParameters on = step.parameters();
        if (deviceUpdater != updater) {
            on.useUpdate(segments(deviceUpdater));
            updater = deviceUpdater;
        }
        INDArray p = HostArrays.rowMajorFloats(params);
        on.set(HostArrays.pointer(p));
        Reference.reachabilityFence(p);
        if (on.stateLength() > 0) {
            if (updaterState == null || updaterState.length() != on.stateLength()) {
                throw new IllegalArgumentException("the updater keeps " + on.stateLength() + " state values; got "
                        + (updaterState == null ? "none" : updaterState.length()));
            }
            INDArray state = HostArrays.rowMajorFloats(updaterState);
            on.setUpdaterState(HostArrays.pointer(state));
            Reference.reachabilityFence(state);
        }
    }

    /** The updater's segments as the engine's. */
    private static List<UpdateSegment> segments(DeviceUpdater updater) {
        if (updater.whyNot() != null) {
            throw new IllegalArgumentException("the device cannot apply this updater: " + updater.whyNot());
        }
        List<UpdateSegment> out = new ArrayList<>();
        for (DeviceUpdater.Segment s : updater.segments()) {
            out.add(new UpdateSegment((int) s.paramStart(), (int) s.paramCount(), switch (s.rule()) {
                case SGD -> UpdateSegment.Rule.SGD;
                case NESTEROVS -> UpdateSegment.Rule.NESTEROVS;
            }, (int) s.stateStart()));
        }
        return out;
    }

    @Override
    public void step(INDArray noise, double divisor, DeviceUpdater.Rates rates) {
        if (updater == null) {
            throw new IllegalStateException("load the parameters and the updater before the first step");
        }
        StepNoise n = StepNoise.NONE;
        INDArray values = null;
        if (noise != null) {
            checkLength(noise, "noise");
            values = HostArrays.rowMajorFloats(noise);
            n = new StepNoise.FromHost(HostArrays.pointer(values));
        }
        // a copy from pageable host memory has read its source when the call returns
        step.parameters().step(n, divisor, rates.learningRates(), rates.momenta());
        Reference.reachabilityFence(values);
    }

    @Override
    public void readParameters(INDArray params) {
        checkLength(params, "parameters");
        read(params, step.parameters().count(), step.parameters()::read, step.parameters()::read);
    }

    @Override
    public void readUpdaterState(INDArray updaterState) {
        DeviceParameters on = step.parameters();
        if (updaterState.length() != on.stateLength()) {
            throw new IllegalArgumentException("the updater keeps " + on.stateLength() + " state values; the array given"
                    + " has " + updaterState.length());
        }
        read(updaterState, on.stateLength(), on::readUpdaterState, on::readUpdaterState);
    }

    @Override
    public void readGradient(INDArray gradient) {
        checkLength(gradient, "gradient");
        read(gradient, step.parameters().count(), step.parameters()::readGradient, step.parameters()::readGradient);
    }

    /** Into the array's own memory when the engine can write it there, else through a Java array. */
    private static void read(INDArray out, int count, java.util.function.Consumer<org.bytedeco.javacpp.FloatPointer> direct,
                             java.util.function.Consumer<float[]> viaArray) {
        if (HostArrays.writable(out)) {
            direct.accept(HostArrays.pointer(out));
        } else {
            float[] values = new float[count];
            viaArray.accept(values);
            out.assign(Nd4j.createFromArray(values).reshape(out.shape()));
        }
    }

    private void checkLength(INDArray a, String what) {
        if (a.length() != numParams) {
            throw new IllegalArgumentException("the " + what + " (" + a.length() + " values) must have the network's "
                    + numParams + " elements");
        }
    }

    private void checkShapes(INDArray features, INDArray labels, INDArray featureSquaredNorms) {
        if (features.rank() != 2 || features.size(1) != nIn) {
            throw new IllegalArgumentException("features must be flat rows [batch, " + nIn + "], got shape "
                    + Arrays.toString(features.shape()));
        }
        if (labels.rank() != 2 || labels.size(0) != features.size(0) || labels.size(1) != nOut) {
            throw new IllegalArgumentException("labels of shape " + Arrays.toString(labels.shape()) + " do not match features"
                    + " of shape " + Arrays.toString(features.shape()) + " and " + nOut + " outputs");
        }
        if (featureSquaredNorms != null && featureSquaredNorms.length() != features.size(0)) {
            throw new IllegalArgumentException("feature squared norms of shape " + Arrays.toString(featureSquaredNorms.shape())
                    + " do not match the batch of " + features.size(0) + ": give one squared norm per example");
        }
        if (features.size(0) > KernelSource.MAX_ELEMENTS / Math.max(1, Math.max(nIn, nOut))) {
            throw new IllegalArgumentException("a batch of " + features.size(0) + " rows is too large for one step");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Backend.freeThenClose(step::close, backend, ownsBackend);
    }
}
