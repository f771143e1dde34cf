package org.dpdl4j.attacks.matching;

import org.dpdl4j.attacks.network.DenseStage;
import org.nd4j.linalg.api.buffer.DataType;

/** A dense stage of {@link JavaGradientMatching}: {@code z = x W + b} on one plane, W held as its nIn rows. */
final class JavaDenseStage extends JavaStage {
    private final double[][] w;
    private final int nIn;
    private final int nOut;

    JavaDenseStage(DenseStage stage) {
        super(stage, 1, (int) stage.inputSize(), 1, (int) stage.outputSize(), null);
        this.nIn = (int) stage.inputSize();
        this.nOut = (int) stage.outputSize();
        this.w = stage.weights().castTo(DataType.DOUBLE).toDoubleMatrix();
    }

    @Override
    State newState() {
        return new State(this, 0, 0);
    }

    @Override
    void apply(double[][] in, double[][] target, State state) {
        double[] z = target[0];
        java.util.Arrays.fill(z, 0.0);
        double[] x = in[0];
        for (int i = 0; i < nIn; i++) {
            JavaKernels.axpy(z, w[i], x[i], nOut);
        }
    }

    @Override
    void applyTransposed(double[][] preShaped, double[][] target, State state) {
        double[] d = preShaped[0];
        double[] e = target[0];
        for (int i = 0; i < nIn; i++) {
            e[i] = JavaKernels.dot(w[i], d, nOut);
        }
    }

    @Override
    void addGradient(State s, double[][] weightGradient, double[] biasGradient) {
        double[] d = s.delta[0];
        double[] x = s.in[0];
        for (int i = 0; i < nIn; i++) {
            JavaKernels.axpy(weightGradient[i], d, x[i], nOut);
        }
        if (biasGradient != null) {
            JavaKernels.axpy(biasGradient, d, 1.0, nOut);
        }
    }

    @Override
    void addGradientAdjoint(State s, double[][] weightBar, double[] biasBar, double c) {
        double[] db = s.deltaBar[0];
        double[] d = s.delta[0];
        double[] x = s.in[0];
        double[] xb = s.inBar[0];
        for (int i = 0; i < nIn; i++) {
            JavaKernels.axpy(db, weightBar[i], c * x[i], nOut);
            xb[i] += c * JavaKernels.dot(weightBar[i], d, nOut);
        }
        if (biasBar != null) {
            JavaKernels.axpy(db, biasBar, c, nOut);
        }
    }

    @Override
    int weightRows() {
        return nIn;
    }

    @Override
    int weightColumns() {
        return nOut;
    }
}
