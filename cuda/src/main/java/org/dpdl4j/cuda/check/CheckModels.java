package org.dpdl4j.cuda.check;

import org.dpdl4j.cuda.engine.Activation;
import org.dpdl4j.cuda.engine.DenseLayer;
import org.dpdl4j.cuda.engine.DenseModel;
import org.dpdl4j.cuda.engine.OutputLoss;

import java.util.SplittableRandom;

/**
 * The device check's networks, with the shapes of the benchmarks and DL4J's defaults (softmax clipping 1e-10 of MCXENT,
 * 1e-5 of XENT), random parameters (Xavier-scaled) and random data: uniform [0, 1) inputs like the torch side's, labels
 * one-hot or 0/1.
 */
final class CheckModels {
    private CheckModels() {
    }

    /** name, model. */
    record Case(String name, DenseModel model) {
    }

    static final Case MLP = new Case("mlp", DenseModel.stacked(new int[]{784, 128, 10}, Activation.RELU,
            OutputLoss.softmaxCrossEntropy(1e-10)));
    static final Case LOGISTIC = new Case("logistic", DenseModel.stacked(new int[]{123, 1}, Activation.IDENTITY,
            OutputLoss.sigmoidCrossEntropy(1e-5)));
    static final Case SOFTMAX = new Case("softmax-regression", DenseModel.stacked(new int[]{784, 10}, Activation.IDENTITY,
            OutputLoss.softmaxCrossEntropy(1e-10)));
    static final Case TANH_MSE = new Case("tanh-mlp-mse", DenseModel.stacked(new int[]{60, 40, 20, 5}, Activation.TANH,
            OutputLoss.squaredError(Activation.IDENTITY, true)));

    static float[] parameters(DenseModel model, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] p = new float[(int) model.numParams()];
        for (DenseLayer l : model.layers()) {
            double scale = Math.sqrt(2.0 / (l.nIn() + l.nOut()));
            for (long j = 0; j < (long) l.nIn() * l.nOut(); j++) {
                p[(int) (l.weightOffset() + j)] = (float) (scale * gaussian(r));
            }
            if (l.hasBias()) {
                for (int k = 0; k < l.nOut(); k++) {
                    p[(int) l.biasOffset() + k] = (float) (0.1 * gaussian(r));
                }
            }
        }
        return p;
    }

    static float[] features(DenseModel model, int b, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] x = new float[b * model.nIn()];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) r.nextDouble();
        }
        return x;
    }

    static float[] labels(DenseModel model, int b, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int k = model.nOut();
        float[] y = new float[b * k];
        for (int i = 0; i < b; i++) {
            if (model.loss().kind() == OutputLoss.Kind.SQUARED_ERROR) {
                for (int c = 0; c < k; c++) {
                    y[i * k + c] = (float) r.nextDouble();
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
    static float[] squaredNorms(DenseModel model, float[] features, int b) {
        float[] out = new float[b];
        int n = model.nIn();
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
