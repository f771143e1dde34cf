package org.dpdl4j.cuda.check;

import org.dpdl4j.cuda.engine.Activation;
import org.dpdl4j.cuda.engine.Backend;
import org.dpdl4j.cuda.engine.ConvNetDpStep;
import org.dpdl4j.cuda.engine.ConvNetModel;
import org.dpdl4j.cuda.engine.ConvShape;
import org.dpdl4j.cuda.engine.DenseDpStep;
import org.dpdl4j.cuda.engine.DenseLayer;
import org.dpdl4j.cuda.engine.DenseModel;
import org.dpdl4j.cuda.engine.DpStep;
import org.dpdl4j.cuda.engine.OutputLoss;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The device check's networks, with the shapes of the benchmarks and DL4J's defaults (softmax clipping 1e-10 of MCXENT,
 * 1e-5 of XENT), random parameters (Xavier-scaled) and random data: uniform [0, 1) inputs like the torch side's, labels
 * one-hot or 0/1.
 */
final class CheckModels {
    private CheckModels() {
    }

    /**
     * A network of the check: dense ({@code dense} set) or convolutional ({@code cnn} set).
     *
     * @param name  as gpu_step.py names the model
     * @param dense a network of dense layers, or null
     * @param cnn   a convolutional network, or null
     */
    record Case(String name, DenseModel dense, ConvNetModel cnn) {
        DpStep open(Backend backend) {
            return dense != null ? new DenseDpStep(backend, dense) : new ConvNetDpStep(backend, cnn);
        }

        int nIn() {
            return dense != null ? dense.nIn() : cnn.nIn();
        }

        int nOut() {
            return dense != null ? dense.nOut() : cnn.nOut();
        }

        int numParams() {
            return (int) (dense != null ? dense.numParams() : cnn.numParams());
        }

        OutputLoss loss() {
            return dense != null ? dense.loss() : cnn.loss();
        }

        List<DenseLayer> denseLayers() {
            return dense != null ? dense.layers() : cnn.dense();
        }
    }

    static final Case MLP = new Case("mlp", DenseModel.stacked(new int[]{784, 128, 10}, Activation.RELU,
            OutputLoss.softmaxCrossEntropy(1e-10)), null);
    static final Case LOGISTIC = new Case("logistic", DenseModel.stacked(new int[]{123, 1}, Activation.IDENTITY,
            OutputLoss.sigmoidCrossEntropy(1e-5)), null);
    static final Case SOFTMAX = new Case("softmax-regression", DenseModel.stacked(new int[]{784, 10}, Activation.IDENTITY,
            OutputLoss.softmaxCrossEntropy(1e-10)), null);
    static final Case TANH_MSE = new Case("tanh-mlp-mse", DenseModel.stacked(new int[]{60, 40, 20, 5}, Activation.TANH,
            OutputLoss.squaredError(Activation.IDENTITY, true)), null);
    /**
     * dpdl4j-models' private tanh CNN on 28x28 images, with DL4J's parameter layout (a convolution's bias before its
     * weights): conv 16 8x8 stride 2 (Same: padding 3), max-pool 2 stride 1, conv 32 4x4 stride 2, max-pool 2 stride 1,
     * dense 32, softmax 10; 26,010 parameters, as gpu_step.py's cnn.
     */
    static final Case CNN = new Case("cnn", null, privateCnn());

    private static ConvNetModel privateCnn() {
        ConvShape pool2 = new ConvShape(32, 5, 5, 32, 2, 2, 1, 1, 0, 0);
        ConvNetModel.Convolution conv1 = convolution(new ConvShape(1, 28, 28, 16, 8, 8, 2, 2, 3, 3), 0);
        ConvNetModel.Convolution conv2 = convolution(new ConvShape(16, 13, 13, 32, 4, 4, 2, 2, 0, 0), conv1.paramCount());
        DenseLayer hidden = new DenseLayer(pool2.outSize(), 32, Activation.TANH, true, conv1.paramCount() + conv2.paramCount());
        DenseLayer output = new DenseLayer(32, 10, Activation.IDENTITY, true, hidden.weightOffset() + hidden.paramCount());
        return new ConvNetModel(List.of(conv1, new ConvNetModel.MaxPooling(new ConvShape(16, 14, 14, 16, 2, 2, 1, 1, 0, 0)),
                conv2, new ConvNetModel.MaxPooling(pool2)), List.of(hidden, output), OutputLoss.softmaxCrossEntropy(1e-10),
                output.weightOffset() + output.paramCount());
    }

    /** A tanh convolution with its parameters from {@code offset}: the bias, then the weights (DL4J's layout). */
    private static ConvNetModel.Convolution convolution(ConvShape shape, long offset) {
        return new ConvNetModel.Convolution(shape, Activation.TANH, true, offset + shape.outC(), offset);
    }

    static float[] parameters(Case c, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] p = new float[c.numParams()];
        if (c.cnn() != null) {
            for (ConvNetModel.Stage s : c.cnn().stages()) {
                if (s instanceof ConvNetModel.Convolution conv) {
                    ConvShape shape = conv.shape();
                    fill(p, r, conv.weightOffset(), (long) shape.outC() * shape.taps(),
                            Math.sqrt(2.0 / (shape.taps() + (long) shape.outC() * shape.kH() * shape.kW())));
                    if (conv.hasBias()) {
                        fill(p, r, conv.biasOffset(), shape.outC(), 0.1);
                    }
                }
            }
        }
        for (DenseLayer l : c.denseLayers()) {
            fill(p, r, l.weightOffset(), (long) l.nIn() * l.nOut(), Math.sqrt(2.0 / (l.nIn() + l.nOut())));
            if (l.hasBias()) {
                fill(p, r, l.biasOffset(), l.nOut(), 0.1);
            }
        }
        return p;
    }

    private static void fill(float[] p, SplittableRandom r, long from, long count, double scale) {
        for (long j = 0; j < count; j++) {
            p[(int) (from + j)] = (float) (scale * gaussian(r));
        }
    }

    static float[] features(Case c, int b, long seed) {
        return uniform(b * c.nIn(), seed);
    }

    static float[] uniform(int count, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[count];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) r.nextDouble();
        }
        return x;
    }

    static float[] labels(Case c, int b, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int k = c.nOut();
        float[] y = new float[b * k];
        for (int i = 0; i < b; i++) {
            if (c.loss().kind() == OutputLoss.Kind.SQUARED_ERROR) {
                for (int j = 0; j < k; j++) {
                    y[i * k + j] = (float) r.nextDouble();
                }
            } else if (k == 1) {
                y[i] = r.nextBoolean() ? 1f : 0f;
            } else {
                y[i * k + r.nextInt(k)] = 1f;
            }
        }
        return y;
    }

    /** Each example's squared feature norm, as dpdl4j's trainer hands them to the step (computed once per dataset). */
    static float[] squaredNorms(Case c, float[] features, int b) {
        float[] out = new float[b];
        int n = c.nIn();
        for (int i = 0; i < b; i++) {
            float s = 0f;
            for (int j = 0; j < n; j++) {
                float v = features[i * n + j];
                s += v * v;
            }
            out[i] = s;
        }
        return out;
    }

    private static double gaussian(SplittableRandom r) {
        double u1 = 1.0 - r.nextDouble();
        double u2 = r.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
