package org.dpdl4j.attacks.matching;

import org.dpdl4j.attacks.network.ConvolutionStage;
import org.dpdl4j.nn.ConvolutionGeometry;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * A convolution stage of {@link JavaGradientMatching}, through the unfolded input: {@code U[k][t]} is input channel
 * {@code c}, kernel tap {@code (ky, kx)} ({@code k = (c kh + ky) kw + kx}) seen from output position {@code t}, and
 * {@code z[o] = sum_k W[o][k] U[k] + b[o]}. The adjoint of the unfolding (im2col) is the folding (col2im) that adds
 * every column back onto the pixel it came from.
 */
final class JavaConvolutionStage extends JavaStage {
    private final ConvolutionGeometry g;
    private final double[][] w;
    private final int taps;
    private final int positions;

    JavaConvolutionStage(ConvolutionStage stage) {
        super(stage, stage.geometry().inChannels(), stage.geometry().inputPixels(), stage.geometry().outChannels(),
                stage.geometry().outputPositions(), stage.pooling());
        this.g = stage.geometry();
        this.taps = g.inChannels() * g.kernelTaps();
        this.positions = g.outputPositions();
        this.w = stage.weights().castTo(DataType.DOUBLE).reshape(g.outChannels(), taps).toDoubleMatrix();
    }

    @Override
    State newState() {
        return new State(this, taps, positions);
    }

    @Override
    void apply(double[][] in, double[][] target, State state) {
        // The forward pass keeps its unfolded input for the gradient; other calls unfold into the adjoint's scratch.
        double[][] u = in == state.in ? state.columns : state.columnsBar;
        unfold(in, u);
        for (int o = 0; o < g.outChannels(); o++) {
            double[] z = target[o];
            java.util.Arrays.fill(z, 0.0);
            double[] wo = w[o];
            for (int k = 0; k < taps; k++) {
                JavaKernels.axpy(z, u[k], wo[k], positions);
            }
        }
    }

    @Override
    void applyTransposed(double[][] preShaped, double[][] target, State state) {
        double[][] du = state.columnsBar;
        for (int k = 0; k < taps; k++) {
            double[] col = du[k];
            java.util.Arrays.fill(col, 0.0);
            for (int o = 0; o < g.outChannels(); o++) {
                JavaKernels.axpy(col, preShaped[o], w[o][k], positions);
            }
        }
        JavaKernels.clear(target);
        fold(du, target);
    }

    @Override
    void addGradient(State s, double[][] weightGradient, double[] biasGradient) {
        for (int o = 0; o < g.outChannels(); o++) {
            double[] d = s.delta[o];
            double[] go = weightGradient[o];
            for (int k = 0; k < taps; k++) {
                go[k] += JavaKernels.dot(d, s.columns[k], positions);
            }
            if (biasGradient != null) {
                biasGradient[o] += JavaKernels.sum(d, positions);
            }
        }
    }

    @Override
    void addGradientAdjoint(State s, double[][] weightBar, double[] biasBar, double c) {
        for (int o = 0; o < g.outChannels(); o++) {
            double[] db = s.deltaBar[o];
            double[] wb = weightBar[o];
            for (int k = 0; k < taps; k++) {
                JavaKernels.axpy(db, s.columns[k], c * wb[k], positions);
            }
            if (biasBar != null) {
                double add = c * biasBar[o];
                for (int t = 0; t < positions; t++) {
                    db[t] += add;
                }
            }
        }
        double[][] ub = s.columnsBar;
        for (int k = 0; k < taps; k++) {
            double[] col = ub[k];
            java.util.Arrays.fill(col, 0.0);
            for (int o = 0; o < g.outChannels(); o++) {
                JavaKernels.axpy(col, s.delta[o], c * weightBar[o][k], positions);
            }
        }
        fold(ub, s.inBar);
    }

    @Override
    int weightRows() {
        return g.outChannels();
    }

    @Override
    int weightColumns() {
        return taps;
    }

    /** im2col of one example: {@code u[k][t]}, zero where the tap falls in the padding. */
    private void unfold(double[][] in, double[][] u) {
        int kh = g.kernelHeight();
        int kw = g.kernelWidth();
        for (int c = 0; c < g.inChannels(); c++) {
            double[] plane = in[c];
            for (int ky = 0; ky < kh; ky++) {
                for (int kx = 0; kx < kw; kx++) {
                    double[] col = u[(c * kh + ky) * kw + kx];
                    for (int oy = 0; oy < g.outHeight(); oy++) {
                        int iy = oy * g.strideHeight() + ky * g.dilationHeight() - g.padTop();
                        int t0 = oy * g.outWidth();
                        if (iy < 0 || iy >= g.inHeight()) {
                            java.util.Arrays.fill(col, t0, t0 + g.outWidth(), 0.0);
                            continue;
                        }
                        for (int ox = 0; ox < g.outWidth(); ox++) {
                            int ix = ox * g.strideWidth() + kx * g.dilationWidth() - g.padLeft();
                            col[t0 + ox] = ix < 0 || ix >= g.inWidth() ? 0.0 : plane[iy * g.inWidth() + ix];
                        }
                    }
                }
            }
        }
    }

    /** col2im: adds every column value onto its input pixel ({@code target} is not cleared). */
    private void fold(double[][] u, double[][] target) {
        int kh = g.kernelHeight();
        int kw = g.kernelWidth();
        for (int c = 0; c < g.inChannels(); c++) {
            double[] plane = target[c];
            for (int ky = 0; ky < kh; ky++) {
                for (int kx = 0; kx < kw; kx++) {
                    double[] col = u[(c * kh + ky) * kw + kx];
                    for (int oy = 0; oy < g.outHeight(); oy++) {
                        int iy = oy * g.strideHeight() + ky * g.dilationHeight() - g.padTop();
                        if (iy < 0 || iy >= g.inHeight()) {
                            continue;
                        }
                        int t0 = oy * g.outWidth();
                        for (int ox = 0; ox < g.outWidth(); ox++) {
                            int ix = ox * g.strideWidth() + kx * g.dilationWidth() - g.padLeft();
                            if (ix >= 0 && ix < g.inWidth()) {
                                plane[iy * g.inWidth() + ix] += col[t0 + ox];
                            }
                        }
                    }
                }
            }
        }
    }
}
