package org.dpdl4j.cuda.engine;

/**
 * The DP step of a {@link DenseModel}: one forward and one backward pass, each example's squared gradient norm as the
 * sum over layers of {@code (||a_i||^2 + 1) ||delta_i||^2}, every error row scaled by {@code c_i} (one kernel for all
 * layers), and the clipped sum {@code A^T diag(c) Delta} per layer as one product; no per-example gradient anywhere.
 * The first layer's products read the host's row-major features transposed instead of copying them.
 */
public final class DenseDpStep extends DpStep {
    private final DenseModel model;
    private final DenseStack layers;

    public DenseDpStep(Backend backend, DenseModel model) {
        super(backend, model.numParams(), model.nIn(), model.nOut());
        this.model = model;
        this.layers = new DenseStack(backend, model.layers(), model.loss());
    }

    public DenseModel model() {
        return model;
    }

    @Override
    void compute(boolean clipping, float clip) {
        DeviceParameters p = parameters();
        layers.forward(p.values(), x, b, y, loss);
        layers.backward(p.values(), null);
        if (clipping) {
            layers.addGhostNorms(sq, x, hasFeatureNorms ? xSq : null, true);
            layers.clipErrors(sq, norms, clip);
        }
        layers.writeGradients(p.gradient(), x, ones);
    }

    @Override
    long unitsPerExample() {
        return layers.unitsPerExample();
    }

    @Override
    void allocate(int capacity) {
        layers.allocate(capacity);
    }

    @Override
    void free() {
        layers.free();
    }
}
