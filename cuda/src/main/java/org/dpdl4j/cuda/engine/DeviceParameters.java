package org.dpdl4j.cuda.engine;

import org.bytedeco.javacpp.FloatPointer;

import java.util.List;

/**
 * A model's flat parameters in a backend's memory, with the gradient a step computes into, the updater state and the
 * private step that moves them there: the noise added to the clipped sum, the division by the expected batch size,
 * and the update of each {@link UpdateSegment} (SGD or Nesterov momentum, DL4J's arithmetic). Everything stays in the
 * backend's memory across steps; only what a caller reads comes back.
 *
 * <p>Not thread-safe.
 */
public final class DeviceParameters implements AutoCloseable {
    private final Backend backend;
    private boolean closed;
    private final int p;
    private final DeviceArray params;
    private final DeviceArray grad;
    private DeviceArray noise;
    private DeviceArray state;
    private List<UpdateSegment> segments;
    private int stateLength;

    /** {@code count} parameters, zero, updated by plain SGD until {@link #useUpdate} says otherwise. */
    public DeviceParameters(Backend backend, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("a model needs at least one parameter, got " + count);
        }
        this.backend = backend;
        this.p = count;
        this.params = backend.allocate(p);
        this.grad = backend.allocate(p);
        backend.fill(params, 0f);
        backend.fill(grad, 0f);
        this.segments = List.of(UpdateSegment.sgd(p));
    }

    public int count() {
        return p;
    }

    /** The parameters in the backend's memory. */
    public DeviceArray values() {
        return params;
    }

    /** The gradient: the clipped sum after a clipped-sum pass, the released (noisy, divided) one after {@link #step}. */
    public DeviceArray gradient() {
        return grad;
    }

    /**
     * How the following steps update the parameters: segments in order that cover every parameter once (DL4J's updater
     * blocks); the updater state is set to zero (load a saved one with {@link #setUpdaterState}).
     */
    public void useUpdate(List<UpdateSegment> newSegments) {
        int next = 0;
        int stateEnd = 0;
        for (UpdateSegment s : newSegments) {
            if (s.start() != next) {
                throw new IllegalArgumentException("update segments must cover the " + p + " parameters in order without"
                        + " gaps; a segment starts at " + s.start() + " where " + next + " was expected");
            }
            next = s.start() + s.length();
            stateEnd = Math.max(stateEnd, s.stateStart() + s.stateLength());
        }
        if (next != p) {
            throw new IllegalArgumentException("update segments cover " + next + " of the " + p + " parameters");
        }
        if (state != null) {
            backend.free(state);
            state = null;
        }
        this.segments = List.copyOf(newSegments);
        this.stateLength = stateEnd;
        if (stateEnd > 0) {
            state = backend.allocate(stateEnd);
            backend.fill(state, 0f);
        }
    }

    public List<UpdateSegment> segments() {
        return segments;
    }

    /** Values of updater state the segments keep (0 for SGD alone). */
    public int stateLength() {
        return stateLength;
    }

    public void set(float[] values) {
        checkLength(values.length, p, "parameters");
        backend.upload(values, 0, params);
    }

    public void set(FloatPointer values) {
        backend.upload(values, params);
    }

    public void read(float[] out) {
        checkLength(out.length, p, "parameter array");
        backend.download(params, out, 0);
    }

    public void read(FloatPointer out) {
        backend.download(params, out);
    }

    public void readGradient(float[] out) {
        checkLength(out.length, p, "gradient array");
        backend.download(grad, out, 0);
    }

    public void readGradient(FloatPointer out) {
        backend.download(grad, out);
    }

    public void setUpdaterState(float[] values) {
        checkLength(values.length, stateLength, "updater state");
        if (stateLength > 0) {
            backend.upload(values, 0, state);
        }
    }

    public void setUpdaterState(FloatPointer values) {
        if (stateLength > 0) {
            backend.upload(values, state);
        }
    }

    public void readUpdaterState(float[] out) {
        checkLength(out.length, stateLength, "updater state array");
        if (stateLength > 0) {
            backend.download(state, out, 0);
        }
    }

    public void readUpdaterState(FloatPointer out) {
        if (stateLength > 0) {
            backend.download(state, out);
        }
    }

    /**
     * The private step after a clipped-sum pass: the noise added to the clipped sum, the sum divided by {@code divisor}
     * (the expected batch size) and kept in {@link #gradient()} as the released gradient, and each segment's update
     * with its learning rate and momentum (momentum is ignored for SGD), all in the backend's memory.
     */
    public void step(StepNoise stepNoise, double divisor, float[] learningRates, float[] momenta) {
        if (!(divisor > 0) || Double.isInfinite(divisor)) {
            throw new IllegalArgumentException("divisor must be a positive finite number, got " + divisor);
        }
        if (learningRates.length != segments.size() || momenta.length != segments.size()) {
            throw new IllegalArgumentException("give one learning rate and one momentum per update segment ("
                    + segments.size() + "), got " + learningRates.length + " and " + momenta.length);
        }
        DeviceArray added = null;
        if (stepNoise instanceof StepNoise.FromHost h) {
            backend.upload(h.values(), noiseBuffer());
            added = noise;
        } else if (stepNoise instanceof StepNoise.FromArray a) {
            checkLength(a.values().length, p, "noise array");
            backend.upload(a.values(), 0, noiseBuffer());
            added = noise;
        } else if (stepNoise instanceof StepNoise.SeededPhilox s) {
            backend.kernels().addPhiloxGaussian(grad, p, s.seed(), s.stream(), s.std());
        }
        Kernels k = backend.kernels();
        for (int i = 0; i < segments.size(); i++) {
            UpdateSegment s = segments.get(i);
            DeviceArray w = params.slice(s.start(), s.length());
            DeviceArray g = grad.slice(s.start(), s.length());
            DeviceArray n = added == null ? null : added.slice(s.start(), s.length());
            switch (s.rule()) {
                case SGD -> k.noisySgd(w, g, n, s.length(), (float) divisor, learningRates[i]);
                case NESTEROVS -> k.noisyNesterovs(w, state.slice(s.stateStart(), s.length()), g, n, s.length(),
                        (float) divisor, learningRates[i], momenta[i]);
            }
        }
    }

    /** As {@link #step(StepNoise, double, float[], float[])} with one learning rate for every segment, no momentum. */
    public void step(StepNoise stepNoise, double divisor, double learningRate) {
        float[] lr = new float[segments.size()];
        java.util.Arrays.fill(lr, (float) learningRate);
        step(stepNoise, divisor, lr, new float[segments.size()]);
    }

    private DeviceArray noiseBuffer() {
        if (noise == null) {
            noise = backend.allocate(p);
        }
        return noise;
    }

    private static void checkLength(int length, int expected, String what) {
        if (length != expected) {
            throw new IllegalArgumentException("the " + what + " has " + length + " values; " + expected + " expected");
        }
    }

    /** Frees the backend memory (the backend stays open: its owner closes it). */
    @Override
    public void close() {
        if (closed) {
            return;   // a second close frees nothing again (cudaFree of a freed address may free another array)
        }
        closed = true;
        backend.free(params);
        backend.free(grad);
        if (noise != null) {
            backend.free(noise);
        }
        if (state != null) {
            backend.free(state);
        }
    }
}
