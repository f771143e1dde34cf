package org.dpdl4j.cuda.engine;

import java.util.List;

/**
 * The ground truth of the engine without ND4J: each example's gradient by its own forward and backward pass in double
 * precision (a batch-of-one loop), its norm, and the sum of the gradients scaled by {@code min(1, C / ||g_i||)}. The
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
        int p = (int) model.numParams();
        double[] sum = new double[p];
        double[] norms = new double[b];
        double[] g = new double[p];
        double lossSum = 0;
        for (int i = 0; i < b; i++) {
            java.util.Arrays.fill(g, 0);
            lossSum += exampleGradient(model, params, features, labels, i, g);
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

    /** Example i's gradient into g; returns its loss. */
    private static double exampleGradient(DenseModel model, float[] params, float[] features, float[] labels, int i,
                                          double[] g) {
        List<DenseLayer> layers = model.layers();
        int depth = layers.size();
        double[][] a = new double[depth + 1][];
        double[][] z = new double[depth][];
        a[0] = new double[model.nIn()];
        for (int j = 0; j < model.nIn(); j++) {
            a[0][j] = features[i * model.nIn() + j];
        }
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
        double[] y = new double[model.nOut()];
        for (int k = 0; k < y.length; k++) {
            y[k] = labels[i * model.nOut() + k];
        }
        double[] delta = new double[model.nOut()];
        double loss = lossAndError(model.loss(), z[depth - 1], y, delta);
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
            if (l > 0) {
                double[] below = new double[layer.nIn()];
                Activation f = layers.get(l - 1).activation();
                for (int j = 0; j < layer.nIn(); j++) {
                    double s = 0;
                    for (int k = 0; k < layer.nOut(); k++) {
                        s += params[(int) layer.weightOffset() + k * layer.nIn() + j] * delta[k];
                    }
                    below[j] = s * f.derivativeAt(z[l - 1][j]);
                }
                delta = below;
            }
        }
        return loss;
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
