package org.dpdl4j.cuda.device;

import org.dpdl4j.cuda.engine.Activation;
import org.dpdl4j.cuda.engine.ConvShape;
import org.dpdl4j.cuda.engine.DeviceArray;
import org.dpdl4j.cuda.engine.Kernels;
import org.dpdl4j.cuda.engine.OutputLoss;

/** The kernels of {@code dp_step.cu} launched on the backend's stream, arguments in the order of their signatures. */
final class CudaKernels implements Kernels {
    private final KernelCall launch;

    CudaKernels(KernelCall launch) {
        this.launch = launch;
    }

    private void run(String name, long work) {
        launch.launch(name, work);
    }

    @Override
    public void biasActivation(DeviceArray z, DeviceArray bias, int count, int inner, int n, Activation f) {
        launch.args().ptr(z).ptr(bias).i32(count).i32(inner).i32(n).i32(f.kind().code()).f32(f.slope());
        run("bias_activation", count);
    }

    @Override
    public void activationBackprop(DeviceArray eps, DeviceArray a, int count, Activation f) {
        launch.args().ptr(eps).ptr(a).i32(count).i32(f.kind().code()).f32(f.slope());
        run("activation_backprop", count);
    }

    @Override
    public void outputLoss(OutputLoss kind, DeviceArray z, DeviceArray labels, DeviceArray loss, int b, int n) {
        switch (kind.kind()) {
            case SOFTMAX_CROSS_ENTROPY -> {
                launch.args().ptr(z).ptr(labels).ptr(loss).i32(b).i32(n).f64(kind.clipEps());
                run("softmax_cross_entropy", b);
            }
            case SIGMOID_CROSS_ENTROPY -> {
                launch.args().ptr(z).ptr(labels).ptr(loss).i32(b).i32(n).f64(kind.clipEps());
                run("sigmoid_cross_entropy", b);
            }
            case SQUARED_ERROR -> {
                Activation f = kind.activation();
                launch.args().ptr(z).ptr(labels).ptr(loss).i32(b).i32(n).i32(f.kind().code()).f32(f.slope())
                        .i32(kind.mean() ? 1 : 0);
                run("squared_error", b);
            }
        }
    }

    @Override
    public void addGhostNorms(DeviceArray sq, DeviceArray a, int rowStride, int colStride, DeviceArray inputSq,
                              DeviceArray error, int b, int nIn, int nOut, boolean hasBias, boolean first) {
        launch.args().ptr(sq).ptr(a).i32(rowStride).i32(colStride).ptr(inputSq).ptr(error).i32(b).i32(nIn).i32(nOut)
                .i32(hasBias ? 1 : 0).i32(first ? 1 : 0);
        run("add_ghost_norms", b);
    }

    @Override
    public void clipErrors(DeviceArray errors, int b, int cols, DeviceArray sq, DeviceArray norms, float clip) {
        launch.args().ptr(errors).i32(b).i32(cols).ptr(sq).ptr(norms).f32(clip);
        run("clip_errors", (long) b * cols);
    }

    @Override
    public void clipFactors(DeviceArray sq, DeviceArray norms, DeviceArray factors, int b, float clip) {
        launch.args().ptr(sq).ptr(norms).ptr(factors).i32(b).f32(clip);
        run("clip_factors", b);
    }

    @Override
    public void scaleByExample(DeviceArray values, int count, int inner, int b, DeviceArray factors) {
        launch.args().ptr(values).i32(count).i32(inner).i32(b).ptr(factors);
        run("scale_by_example", count);
    }

    @Override
    public void addRowDots(DeviceArray sq, DeviceArray u, DeviceArray d, int length, int b, boolean first,
                           DeviceArray parts) {
        int lanes = Kernels.lanes(length);
        launch.args().ptr(parts).ptr(u).ptr(d).i32(length).i32(b).i32(lanes);
        run("dot_lanes", (long) b * lanes);
        launch.args().ptr(sq).ptr(parts).i32(lanes).i32(b).i32(first ? 1 : 0);
        run("add_lane_sums", b);
    }

    @Override
    public void im2col(DeviceArray x, DeviceArray cols, ConvShape s, int b) {
        launch.args().ptr(x).ptr(cols).i32(b).i32(s.inC()).i32(s.inH()).i32(s.inW()).i32(s.kH()).i32(s.kW()).i32(s.sH())
                .i32(s.sW()).i32(s.padH()).i32(s.padW()).i32(s.outH()).i32(s.outW());
        run("im2col", (long) b * s.taps() * s.positions());
    }

    @Override
    public void noisySgd(DeviceArray params, DeviceArray grad, DeviceArray noise, int p, float divisor, float lr) {
        launch.args().ptr(params).ptr(grad).ptr(noise).i32(p).f32(divisor).f32(lr);
        run("noisy_sgd", p);
    }

    @Override
    public void noisyNesterovs(DeviceArray params, DeviceArray v, DeviceArray grad, DeviceArray noise, int p, float divisor,
                               float lr, float momentum) {
        launch.args().ptr(params).ptr(v).ptr(grad).ptr(noise).i32(p).f32(divisor).f32(lr).f32(momentum);
        run("noisy_nesterovs", p);
    }

    @Override
    public void addPhiloxGaussian(DeviceArray grad, int p, long seed, long stream, float std) {
        launch.args().ptr(grad).i32(p).u64(seed).u64(stream).f32(std);
        run("add_philox_gaussian", p);
    }

    @Override
    public void addPhiloxRows(DeviceArray x, int rows, int p, long seed, long first, long stride, double std) {
        launch.args().ptr(x).i32(rows).i32(p).u64(seed).u64(first).u64(stride).f64(std);
        run("add_philox_rows", (long) rows * p);
    }

    @Override
    public void addPhiloxListed(DeviceArray x, int rows, int p, long seed, long base, long stride, DeviceArray ids,
                                double std) {
        launch.args().ptr(x).i32(rows).i32(p).u64(seed).u64(base).u64(stride).ptr(ids).f64(std);
        run("add_philox_listed", (long) rows * p);
    }

    @Override
    public void mixRows(DeviceArray out, DeviceArray start, DeviceArray cols, DeviceArray weights, DeviceArray x, int n, int p) {
        launch.args().ptr(out).ptr(start).ptr(cols).ptr(weights).ptr(x).i32(n).i32(p);
        run("mix_rows", (long) n * p);
    }

    @Override
    public void gatherRows(DeviceArray out, DeviceArray src, DeviceArray index, int rows, int width) {
        launch.args().ptr(out).ptr(src).ptr(index).i32(rows).i32(width);
        run("gather_rows", (long) rows * width);
    }
}
