package org.dpdl4j.attacks.matching;

import org.dpdl4j.attacks.network.ConvolutionStage;
import org.dpdl4j.attacks.network.DenseStage;
import org.dpdl4j.attacks.network.Stage;
import org.dpdl4j.attacks.network.StageActivation;
import org.dpdl4j.nn.PoolingGeometry;

/**
 * One stage of {@link JavaGradientMatching} at one point's weights: the affine map {@code A} ({@code z = A(x) + b}),
 * the activation, and the pooling after it. A value over one example is held as planes, {@code double[channels][positions]}
 * (a dense layer's vector is one plane): the loops then run over whole arrays. The per-example quantities of an
 * evaluation live in a {@link State}; the stage itself only holds its weights.
 */
abstract sealed class JavaStage permits JavaDenseStage, JavaConvolutionStage {
    final StageActivation activation;
    final double[] bias;
    final PoolingGeometry pooling;
    /** Planes and positions of the input, of the pre-activation, and of the (pooled) output. */
    final int inPlanes;
    final int inPositions;
    final int prePlanes;
    final int prePositions;
    final int outPlanes;
    final int outPositions;

    JavaStage(Stage stage, int inPlanes, int inPositions, int prePlanes, int prePositions, PoolingGeometry pooling) {
        this.activation = stage.activation();
        this.bias = stage.hasBias() ? stage.bias().toDoubleVector() : null;
        this.pooling = pooling;
        this.inPlanes = inPlanes;
        this.inPositions = inPositions;
        this.prePlanes = prePlanes;
        this.prePositions = prePositions;
        this.outPlanes = prePlanes;
        this.outPositions = pooling == null ? prePositions : pooling.outputPositions();
    }

    /** The stage of a target network's stage. */
    static JavaStage of(Stage stage) {
        return stage instanceof ConvolutionStage c ? new JavaConvolutionStage(c) : new JavaDenseStage((DenseStage) stage);
    }

    /** Everything one example's evaluation keeps at this stage. */
    static final class State {
        double[][] in;
        final double[][] pre;
        final double[][] act;
        final double[][] out;
        final int[][] argmax;
        final double[][] delta;
        final double[][] error;
        final double[][] deltaBar;
        final double[][] preBar;
        final double[][] inBar;
        final double[][] columns;
        final double[][] columnsBar;

        State(JavaStage s, int columnRows, int columnPositions) {
            pre = new double[s.prePlanes][s.prePositions];
            act = new double[s.prePlanes][s.prePositions];
            out = s.pooling == null ? act : new double[s.outPlanes][s.outPositions];
            argmax = s.pooling != null && s.pooling.kind() == PoolingGeometry.Kind.MAX
                    ? new int[s.outPlanes][s.outPositions] : null;
            delta = new double[s.prePlanes][s.prePositions];
            error = new double[s.prePlanes][s.prePositions];
            deltaBar = new double[s.prePlanes][s.prePositions];
            preBar = new double[s.prePlanes][s.prePositions];
            inBar = new double[s.inPlanes][s.inPositions];
            columns = columnRows == 0 ? null : new double[columnRows][columnPositions];
            columnsBar = columnRows == 0 ? null : new double[columnRows][columnPositions];
        }
    }

    abstract State newState();

    /** {@code A(in)} without the bias, into {@code target} (overwritten), using {@code state}'s scratch. */
    abstract void apply(double[][] in, double[][] target, State state);

    /** {@code A^T(pre-shaped)}, into {@code target} (input-shaped, overwritten). */
    abstract void applyTransposed(double[][] preShaped, double[][] target, State state);

    /** The gradient of this example: {@code gW += dA/dW (state.in, state.delta)}, {@code gb += sum(state.delta)}. */
    abstract void addGradient(State state, double[][] weightGradient, double[] biasGradient);

    /**
     * The adjoint of {@link #addGradient} for loss adjoints {@code c Gbar}, {@code c gbar}: adds to
     * {@code state.deltaBar} and to {@code state.inBar}.
     */
    abstract void addGradientAdjoint(State state, double[][] weightBar, double[] biasBar, double c);

    /** Rows and row length of the weight gradient, as {@link #addGradient} lays it out. */
    abstract int weightRows();

    abstract int weightColumns();

    /**
     * Forward over one example: pre-activation, activation ({@code a = z} at the logits stage) and pooling.
     *
     * @param logits whether this is the last stage
     */
    final void forward(State s, double[][] in, boolean logits) {
        s.in = in;
        apply(in, s.pre, s);
        for (int o = 0; o < prePlanes; o++) {
            double[] z = s.pre[o];
            double[] a = s.act[o];
            if (bias != null) {
                // A dense stage's bias runs along its one plane; a convolution's is one value per plane.
                if (prePlanes == 1 && bias.length == prePositions) {
                    JavaKernels.axpy(z, bias, 1.0, prePositions);
                } else {
                    double b = bias[o];
                    for (int t = 0; t < prePositions; t++) {
                        z[t] += b;
                    }
                }
            }
            for (int t = 0; t < prePositions; t++) {
                a[t] = logits ? z[t] : activation.apply(z[t]);
            }
        }
        if (pooling != null) {
            pool(s);
        }
    }

    /** Backward into this stage: {@code delta = P^T(outError) * f'(z)}, keeping {@code P^T(outError)} for the curvature term. */
    final void errorToDelta(State s, double[][] outError) {
        pullBack(s, outError, s.error);
        for (int o = 0; o < prePlanes; o++) {
            double[] e = s.error[o];
            double[] d = s.delta[o];
            double[] z = s.pre[o];
            double[] a = s.act[o];
            for (int t = 0; t < prePositions; t++) {
                d[t] = e[t] * activation.slope(z[t], a[t]);
            }
        }
    }

    /**
     * The reverse of {@link #errorToDelta} for {@code state.deltaBar}: the adjoint of the output error into
     * {@code outErrorBar}, and the curvature term {@code deltaBar * error * f''(z)} added to {@code state.preBar}.
     */
    final void deltaBarToErrorBar(State s, double[][] outErrorBar, double[][] scratch) {
        boolean curved = !activation.isPiecewiseLinear();
        for (int o = 0; o < prePlanes; o++) {
            double[] db = s.deltaBar[o];
            double[] sc = scratch[o];
            double[] z = s.pre[o];
            double[] a = s.act[o];
            double[] e = s.error[o];
            double[] pb = s.preBar[o];
            for (int t = 0; t < prePositions; t++) {
                sc[t] = db[t] * activation.slope(z[t], a[t]);
                if (curved) {
                    pb[t] += db[t] * e[t] * activation.curvature(a[t]);
                }
            }
        }
        pushForward(s, scratch, outErrorBar);
    }

    /** The forward pass's reverse through the pooling and the activation: {@code preBar += P^T(outBar) * f'(z)}. */
    final void outBarToPreBar(State s, double[][] outBar, double[][] scratch) {
        pullBack(s, outBar, scratch);
        for (int o = 0; o < prePlanes; o++) {
            double[] sc = scratch[o];
            double[] pb = s.preBar[o];
            double[] z = s.pre[o];
            double[] a = s.act[o];
            for (int t = 0; t < prePositions; t++) {
                pb[t] += sc[t] * activation.slope(z[t], a[t]);
            }
        }
    }

    private void pool(State s) {
        PoolingGeometry g = pooling;
        boolean max = g.kind() == PoolingGeometry.Kind.MAX;
        double area = g.kernelHeight() * g.kernelWidth();
        for (int o = 0; o < prePlanes; o++) {
            double[] a = s.act[o];
            double[] out = s.out[o];
            for (int py = 0; py < g.outHeight(); py++) {
                for (int px = 0; px < g.outWidth(); px++) {
                    int q = py * g.outWidth() + px;
                    double best = Double.NEGATIVE_INFINITY;
                    int where = -1;
                    double sum = 0;
                    for (int wy = 0; wy < g.kernelHeight(); wy++) {
                        int row = (py * g.strideHeight() + wy) * g.inWidth() + px * g.strideWidth();
                        for (int wx = 0; wx < g.kernelWidth(); wx++) {
                            double v = a[row + wx];
                            sum += v;
                            if (v > best) {
                                best = v;
                                where = row + wx;
                            }
                        }
                    }
                    if (max) {
                        out[q] = best;
                        s.argmax[o][q] = where;
                    } else {
                        out[q] = sum / area;
                    }
                }
            }
        }
    }

    /** {@code P^T}: an output-shaped value to the activation's shape (overwrites {@code target}). */
    private void pullBack(State s, double[][] outShaped, double[][] target) {
        if (pooling == null) {
            for (int o = 0; o < prePlanes; o++) {
                System.arraycopy(outShaped[o], 0, target[o], 0, prePositions);
            }
            return;
        }
        PoolingGeometry g = pooling;
        double area = g.kernelHeight() * g.kernelWidth();
        for (int o = 0; o < prePlanes; o++) {
            double[] t = target[o];
            java.util.Arrays.fill(t, 0.0);
            double[] v = outShaped[o];
            if (s.argmax != null) {
                int[] at = s.argmax[o];
                for (int q = 0; q < outPositions; q++) {
                    t[at[q]] += v[q];
                }
            } else {
                for (int py = 0; py < g.outHeight(); py++) {
                    for (int px = 0; px < g.outWidth(); px++) {
                        double share = v[py * g.outWidth() + px] / area;
                        for (int wy = 0; wy < g.kernelHeight(); wy++) {
                            int row = (py * g.strideHeight() + wy) * g.inWidth() + px * g.strideWidth();
                            for (int wx = 0; wx < g.kernelWidth(); wx++) {
                                t[row + wx] += share;
                            }
                        }
                    }
                }
            }
        }
    }

    /** {@code P}: an activation-shaped value to the output's shape (overwrites {@code target}); linear, with the
     * forward pass's choice of maxima. */
    private void pushForward(State s, double[][] actShaped, double[][] target) {
        if (pooling == null) {
            for (int o = 0; o < prePlanes; o++) {
                System.arraycopy(actShaped[o], 0, target[o], 0, prePositions);
            }
            return;
        }
        PoolingGeometry g = pooling;
        double area = g.kernelHeight() * g.kernelWidth();
        for (int o = 0; o < prePlanes; o++) {
            double[] v = actShaped[o];
            double[] t = target[o];
            if (s.argmax != null) {
                int[] at = s.argmax[o];
                for (int q = 0; q < outPositions; q++) {
                    t[q] = v[at[q]];
                }
            } else {
                for (int py = 0; py < g.outHeight(); py++) {
                    for (int px = 0; px < g.outWidth(); px++) {
                        double sum = 0;
                        for (int wy = 0; wy < g.kernelHeight(); wy++) {
                            int row = (py * g.strideHeight() + wy) * g.inWidth() + px * g.strideWidth();
                            for (int wx = 0; wx < g.kernelWidth(); wx++) {
                                sum += v[row + wx];
                            }
                        }
                        t[py * g.outWidth() + px] = sum / area;
                    }
                }
            }
        }
    }
}
