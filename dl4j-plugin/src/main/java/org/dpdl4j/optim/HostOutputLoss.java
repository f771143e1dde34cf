package org.dpdl4j.optim;

import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.activations.impl.ActivationSigmoid;
import org.nd4j.linalg.activations.impl.ActivationSoftmax;
import org.nd4j.linalg.lossfunctions.ILossFunction;
import org.nd4j.linalg.lossfunctions.impl.LossBinaryXENT;
import org.nd4j.linalg.lossfunctions.impl.LossL2;
import org.nd4j.linalg.lossfunctions.impl.LossMCXENT;
import org.nd4j.linalg.lossfunctions.impl.LossMSE;

import java.lang.reflect.Field;

/**
 * An output layer's activation and loss for {@link HostDenseGradients}: from the output pre-activations of a batch
 * (columns), each example's loss and the error dL/dz that starts the backward pass, with DL4J's formulas (its
 * clipping of probabilities included). {@link #of} maps the unweighted DL4J losses that have a kernel here:
 * softmax with multi-class cross-entropy (MCXENT, NEGATIVELOGLIKELIHOOD), sigmoid with binary cross-entropy
 * (XENT), and squared error (L2, MSE) after any activation {@link HostActivation} knows. Public for the device
 * engines, which compute the same losses.
 */
public sealed interface HostOutputLoss {
    /**
     * Overwrites z[k][0..b) with dL/dz and writes each example's loss into scores[0..b).
     *
     * @param z      output pre-activations, one column per output unit
     * @param labels label columns, same layout; a kernel may use them as scratch (they are read once per step)
     */
    void lossAndError(float[][] z, float[][] labels, int nOut, int b, float[] scores);

    /** The kernel for a DL4J output activation and loss, or null when there is none. */
    static HostOutputLoss of(IActivation activation, ILossFunction loss) {
        if (loss instanceof LossMCXENT mcxent && mcxent.getWeights() == null && activation instanceof ActivationSoftmax) {
            Double eps = softmaxClipEpsilon(mcxent);
            return eps == null ? null : new SoftmaxCrossEntropy(eps);
        }
        if (loss instanceof LossBinaryXENT xent && xent.getWeights() == null && activation instanceof ActivationSigmoid) {
            return new SigmoidCrossEntropy(xent.getClipEps());
        }
        if (loss instanceof LossL2 l2 && l2.getWeights() == null) {
            HostActivation act = HostActivation.of(activation);
            return act == null ? null : new SquaredError(act, loss instanceof LossMSE);
        }
        return null;
    }

    /** LossMCXENT keeps its clipping epsilon in a protected field without a getter; null if it cannot be read. */
    private static Double softmaxClipEpsilon(LossMCXENT loss) {
        try {
            Field f = LossMCXENT.class.getDeclaredField("softmaxClipEps");
            f.setAccessible(true);
            return f.getDouble(loss);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Softmax + cross-entropy: loss -sum_k y_k log(clip(p_k)), error p_k sum(y) - y_k (DL4J's form, which is p - y for
     * one-hot labels). Probabilities are clipped to [eps, 1 - eps] in the loss only, as DL4J does.
     */
    record SoftmaxCrossEntropy(double clipEps) implements HostOutputLoss {
        @Override
        public void lossAndError(float[][] z, float[][] labels, int nOut, int b, float[] scores) {
            for (int i = 0; i < b; i++) {
                double max = Double.NEGATIVE_INFINITY;
                for (int k = 0; k < nOut; k++) {
                    max = Math.max(max, z[k][i]);
                }
                double total = 0;
                for (int k = 0; k < nOut; k++) {
                    total += Math.exp(z[k][i] - max);
                }
                double labelSum = 0;
                double loss = 0;
                for (int k = 0; k < nOut; k++) {
                    labelSum += labels[k][i];
                }
                for (int k = 0; k < nOut; k++) {
                    double p = Math.exp(z[k][i] - max) / total;
                    double y = labels[k][i];
                    if (y != 0) {
                        double clipped = clipEps > 0 ? Math.min(Math.max(p, clipEps), 1 - clipEps) : p;
                        loss -= y * Math.log(clipped);
                    }
                    z[k][i] = (float) (p * labelSum - y);
                }
                scores[i] = (float) loss;
            }
        }
    }

    /**
     * Sigmoid + binary cross-entropy per output: with p = sigmoid(z) and p' = p clipped to [eps, 1 - eps], loss
     * -(y log p' + (1 - y) log(1 - p')) and error (p' - y) / (p'(1 - p')) * p(1 - p), as DL4J computes it (p - y
     * wherever p is not clipped).
     */
    record SigmoidCrossEntropy(double clipEps) implements HostOutputLoss {
        @Override
        public void lossAndError(float[][] z, float[][] labels, int nOut, int b, float[] scores) {
            for (int i = 0; i < b; i++) {
                double loss = 0;
                for (int k = 0; k < nOut; k++) {
                    double p = 1.0 / (1.0 + Math.exp(-(double) z[k][i]));
                    double clipped = clipEps > 0 ? Math.min(Math.max(p, clipEps), 1 - clipEps) : p;
                    double y = labels[k][i];
                    // The usual labels are 0 or 1: then one of the two logarithms has weight 0.
                    loss -= (y == 0 ? 0 : y * Math.log(clipped)) + (y == 1 ? 0 : (1 - y) * Math.log(1 - clipped));
                    z[k][i] = (float) ((clipped - y) / (clipped * (1 - clipped)) * (p * (1 - p)));
                }
                scores[i] = (float) loss;
            }
        }
    }

    /** Squared error after an activation: loss sum_k (y_k - a_k)^2, divided by the number of outputs for MSE. */
    record SquaredError(HostActivation activation, boolean mean) implements HostOutputLoss {
        @Override
        public void lossAndError(float[][] z, float[][] labels, int nOut, int b, float[] scores) {
            float scale = mean ? 1f / nOut : 1f;
            java.util.Arrays.fill(scores, 0, b, 0f);
            for (int k = 0; k < nOut; k++) {
                float[] a = z[k];
                float[] y = labels[k];
                activation.apply(a, b);
                for (int i = 0; i < b; i++) {
                    float diff = a[i] - y[i];
                    scores[i] += diff * diff * scale;
                    y[i] = 2f * diff * scale;   // the label column becomes dL/da
                }
                activation.backprop(a, y, b);
                System.arraycopy(y, 0, a, 0, b);
            }
        }
    }
}
