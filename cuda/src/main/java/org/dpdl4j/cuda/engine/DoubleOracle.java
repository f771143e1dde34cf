package org.dpdl4j.cuda.engine;

import java.util.List;

/**
 * The ground truth of the engine without ND4J: each example's gradient by its own forward and backward pass in double
 * precision (a batch-of-one loop, for dense and convolutional models), its norm, and the sum of the gradients scaled by
 * {@code min(1, C / ||g_i||)}. The
 * tests hold it to dpdl4j's DL4J-based oracle ({@code PerExampleGradientOracle}); the device check holds the GPU to it
 * where no ND4J is at hand. Slow on purpose: it is the definition, not an engine.
 */
public final class DoubleOracle {
    private DoubleOracle() {
    }

    /**
     * @param norms      each example's gradient norm before clipping
     * @param clippedSum the clipped sum, in the flat parameter layout
     * @param lossSum    the sum of the examples' losses
     */
    public record Result(double[] norms, double[] clippedSum, double lossSum) {
    }

    /**
     * @param params   the flat parameters
     * @param features row-major [b, nIn]
     * @param labels   row-major [b, nOut]
     * @param clip     C, or infinity for the plain sum
     */
    public static Result clippedSum(DenseModel model, float[] params, float[] features, float[] labels, int b, double clip) {
        return clippedSum((int) model.numParams(), b, clip, (i, g) -> denseGradient(model.layers(), model.loss(), params,
                row(features, i, model.nIn()), row(labels, i, model.nOut()), g, null));
    }

    /** As for a dense model, for a convolutional one (images as flat NCHW rows). */
    public static Result clippedSum(ConvNetModel model, float[] params, float[] features, float[] labels, int b, double clip) {
        return clippedSum((int) model.numParams(), b, clip, (i, g) -> convolutionalGradient(model, params,
                row(features, i, model.nIn()), row(labels, i, model.nOut()), g));
    }

    /** One example's gradient into g (zero on entry); returns its loss. */
    private interface ExampleGradient {
        double into(int example, double[] g);
    }

    private static Result clippedSum(int p, int b, double clip, ExampleGradient gradient) {
        double[] sum = new double[p];
        double[] norms = new double[b];
        double[] g = new double[p];
        double lossSum = 0;
        for (int i = 0; i < b; i++) {
            java.util.Arrays.fill(g, 0);
            lossSum += gradient.into(i, g);
            double sq = 0;
            for (double v : g) {
                sq += v * v;
            }
            norms[i] = Math.sqrt(sq);
            double factor = Double.isInfinite(clip) ? 1.0 : Math.min(1.0, clip / norms[i]);
            for (int j = 0; j < p; j++) {
                sum[j] += factor * g[j];
            }
        }
        return new Result(norms, sum, lossSum);
    }

    private static double[] row(float[] rowMajor, int i, int n) {
        double[] r = new double[n];
        for (int j = 0; j < n; j++) {
            r[j] = rowMajor[i * n + j];
        }
        return r;
    }

    /**
     * Dense layers' gradient of one example into g, and with {@code inputGradient} not null the loss's gradient with
     * respect to the input; returns the loss.
     */
    private static double denseGradient(List<DenseLayer> layers, OutputLoss lossKind, float[] params, double[] input,
                                        double[] y, double[] g, double[] inputGradient) {
        int depth = layers.size();
        double[][] a = new double[depth + 1][];
        double[][] z = new double[depth][];
        a[0] = input;
        for (int l = 0; l < depth; l++) {
            DenseLayer layer = layers.get(l);
            z[l] = new double[layer.nOut()];
            for (int k = 0; k < layer.nOut(); k++) {
                double s = layer.hasBias() ? params[(int) layer.biasOffset() + k] : 0;
                for (int j = 0; j < layer.nIn(); j++) {
                    s += a[l][j] * params[(int) layer.weightOffset() + k * layer.nIn() + j];
                }
                z[l][k] = s;
            }
            if (l < depth - 1) {
                a[l + 1] = new double[layer.nOut()];
                for (int k = 0; k < layer.nOut(); k++) {
                    a[l + 1][k] = layer.activation().applyExact(z[l][k]);
                }
            }
        }
        double[] delta = new double[y.length];
        double loss = lossAndError(lossKind, z[depth - 1], y, delta);
        for (int l = depth - 1; l >= 0; l--) {
            DenseLayer layer = layers.get(l);
            for (int k = 0; k < layer.nOut(); k++) {
                for (int j = 0; j < layer.nIn(); j++) {
                    g[(int) layer.weightOffset() + k * layer.nIn() + j] = a[l][j] * delta[k];
                }
                if (layer.hasBias()) {
                    g[(int) layer.biasOffset() + k] = delta[k];
                }
            }
            if (l > 0 || inputGradient != null) {
                double[] below = l > 0 ? new double[layer.nIn()] : inputGradient;
                for (int j = 0; j < layer.nIn(); j++) {
                    double s = 0;
                    for (int k = 0; k < layer.nOut(); k++) {
                        s += params[(int) layer.weightOffset() + k * layer.nIn() + j] * delta[k];
                    }
                    below[j] = l > 0 ? s * layers.get(l - 1).activation().derivativeAt(z[l - 1][j]) : s;
                }
                delta = below;
            }
        }
        return loss;
    }

    /** A convolutional network's gradient of one example into g, stage by stage in double; returns the loss. */
    private static double convolutionalGradient(ConvNetModel model, float[] params, double[] image, double[] y,
                                                double[] g) {
        List<ConvNetModel.Stage> stages = model.stages();
        int n = stages.size();
        double[][] in = new double[n + 1][];
        double[][] pre = new double[n][];
        int[][] argMax = new int[n][];
        in[0] = image;
        for (int s = 0; s < n; s++) {
            ConvShape shape = stages.get(s).shape();
            double[] input = in[s];
            double[] out = new double[shape.outSize()];
            if (stages.get(s) instanceof ConvNetModel.Convolution c) {
                double[] z = new double[out.length];
                forEachTap(shape, (co, t, ci, at, w) -> z[co * shape.positions() + t] += input[at]
                        * params[(int) c.weightOffset() + w]);
                for (int e = 0; e < out.length; e++) {
                    z[e] += c.hasBias() ? params[(int) c.biasOffset() + e / shape.positions()] : 0;
                    out[e] = c.activation().applyExact(z[e]);
                }
                pre[s] = z;
            } else {
                int[] max = new int[out.length];
                java.util.Arrays.fill(max, -1);
                forEachTap(shape, (co, t, ci, at, w) -> {
                    int e = co * shape.positions() + t;
                    if (ci == co && (max[e] < 0 || input[at] > input[max[e]])) {
                        max[e] = at;
                    }
                });
                for (int e = 0; e < out.length; e++) {
                    out[e] = input[max[e]];
                }
                argMax[s] = max;
            }
            in[s + 1] = out;
        }
        double[] grad = new double[in[n].length];
        double loss = denseGradient(model.dense(), model.loss(), params, in[n], y, g, grad);
        for (int s = n - 1; s >= 0; s--) {
            ConvShape shape = stages.get(s).shape();
            double[] below = new double[shape.inSize()];
            if (stages.get(s) instanceof ConvNetModel.Convolution c) {
                double[] delta = new double[grad.length];
                for (int e = 0; e < delta.length; e++) {
                    delta[e] = grad[e] * c.activation().derivativeAt(pre[s][e]);
                    if (c.hasBias()) {
                        g[(int) c.biasOffset() + e / shape.positions()] += delta[e];
                    }
                }
                double[] input = in[s];
                forEachTap(shape, (co, t, ci, at, w) -> {
                    double d = delta[co * shape.positions() + t];
                    g[(int) c.weightOffset() + w] += d * input[at];
                    below[at] += d * params[(int) c.weightOffset() + w];
                });
            } else {
                for (int e = 0; e < grad.length; e++) {
                    below[argMax[s][e]] += grad[e];
                }
            }
            grad = below;
        }
        return loss;
    }

    /** Every (output channel, output position, input channel, input index, weight index) a window covers. */
    private interface Tap {
        void at(int outChannel, int position, int inChannel, int inputIndex, int weightIndex);
    }

    private static void forEachTap(ConvShape s, Tap tap) {
        s.forEachTap((co, oh, ow, ci, h, w, kh, kw) -> tap.at(co, oh * s.outW() + ow, ci, (ci * s.inH() + h) * s.inW() + w,
                ((co * s.inC() + ci) * s.kH() + kh) * s.kW() + kw));
    }

    /** The loss of one example and dL/dz into delta, DL4J's formulas in double. */
    private static double lossAndError(OutputLoss kind, double[] z, double[] y, double[] delta) {
        int n = z.length;
        double loss = 0;
        switch (kind.kind()) {
            case SOFTMAX_CROSS_ENTROPY -> {
                double max = Double.NEGATIVE_INFINITY;
                for (double v : z) {
                    max = Math.max(max, v);
                }
                double total = 0;
                for (double v : z) {
                    total += Math.exp(v - max);
                }
                double labelSum = 0;
                for (double v : y) {
                    labelSum += v;
                }
                for (int k = 0; k < n; k++) {
                    double p = Math.exp(z[k] - max) / total;
                    if (y[k] != 0) {
                        loss -= y[k] * Math.log(clip(p, kind.clipEps()));
                    }
                    delta[k] = p * labelSum - y[k];
                }
            }
            case SIGMOID_CROSS_ENTROPY -> {
                for (int k = 0; k < n; k++) {
                    double p = 1.0 / (1.0 + Math.exp(-z[k]));
                    double c = clip(p, kind.clipEps());
                    loss -= (y[k] == 0 ? 0 : y[k] * Math.log(c)) + (y[k] == 1 ? 0 : (1 - y[k]) * Math.log(1 - c));
                    delta[k] = (c - y[k]) / (c * (1 - c)) * (p * (1 - p));
                }
            }
            case SQUARED_ERROR -> {
                double scale = kind.mean() ? 1.0 / n : 1.0;
                for (int k = 0; k < n; k++) {
                    double a = kind.activation().applyExact(z[k]);
                    double diff = a - y[k];
                    loss += diff * diff * scale;
                    delta[k] = 2 * diff * scale * kind.activation().derivativeAt(z[k]);
                }
            }
        }
        return loss;
    }

    private static double clip(double p, double eps) {
        return eps > 0 ? Math.min(Math.max(p, eps), 1 - eps) : p;
    }
}
