package org.dpdl4j.attacks.network;

import java.util.List;
import org.dpdl4j.nn.LayerDescription;
import org.dpdl4j.nn.ModelProblem;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.dpdl4j.models.LossHalfSquaredError;
import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.activations.impl.ActivationIdentity;
import org.nd4j.linalg.activations.impl.ActivationSigmoid;
import org.nd4j.linalg.activations.impl.ActivationSoftmax;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.lossfunctions.ILossFunction;
import org.nd4j.linalg.lossfunctions.impl.LossBinaryXENT;
import org.nd4j.linalg.lossfunctions.impl.LossMCXENT;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The output activation and loss of the attacked network. For every head the loss gradient with respect to
 * the logits {@code z} is {@code p - y}, with {@code p} the head applied to {@code z} and {@code y} the label
 * (one-hot, or a soft label produced by the same head from dummy label logits {@code u}).
 */
public enum OutputHead {
    /** Softmax output with multi-class cross-entropy (DL4J {@code SOFTMAX} + {@code MCXENT}). */
    SOFTMAX_CROSS_ENTROPY,
    /**
     * Sigmoid output(s) with binary cross-entropy per output (DL4J {@code SIGMOID} + {@code XENT}). DL4J clips
     * the sigmoid to {@code [1e-5, 1 - 1e-5]} inside its gradient, so its gradient differs from {@code p - y}
     * only where an output is saturated beyond that.
     */
    SIGMOID_CROSS_ENTROPY,
    /**
     * Identity output with half squared error {@code 1/2 ||z - y||^2} per example (a linear least-squares model, such
     * as the distributed Lasso of DP-RECAL; {@link LossHalfSquaredError}). A dummy label is unconstrained: {@code y = u}.
     */
    IDENTITY_HALF_SQUARED_ERROR;

    /**
     * The head of an output layer.
     *
     * @param problems where the reason is filed for other activation/loss pairs and weighted losses
     * @return the head, or {@code null} after filing the problem
     */
    public static OutputHead of(LayerDescription layer, List<ModelProblem> problems) {
        ILossFunction loss = layer.loss();
        IActivation activation = layer.activation();
        if (loss instanceof LossMCXENT mc && activation instanceof ActivationSoftmax) {
            if (mc.getWeights() == null) {
                return SOFTMAX_CROSS_ENTROPY;
            }
            problems.add(layer.problem("class-weighted MCXENT is not supported", "use unweighted MCXENT"));
        } else if (loss instanceof LossBinaryXENT xent && activation instanceof ActivationSigmoid) {
            if (xent.getWeights() == null) {
                return SIGMOID_CROSS_ENTROPY;
            }
            problems.add(layer.problem("weighted XENT is not supported", "use unweighted XENT"));
        } else if (loss instanceof LossHalfSquaredError && activation instanceof ActivationIdentity) {
            return IDENTITY_HALF_SQUARED_ERROR;
        } else {
            problems.add(layer.problem("output activation " + activation + " with loss " + loss
                    + " is not supported", "use SOFTMAX with MCXENT, SIGMOID with XENT, or IDENTITY with"
                    + " LossHalfSquaredError"));
        }
        return null;
    }

    /** The head applied to logits (rows are examples), as a new array. */
    public INDArray apply(INDArray logits) {
        return switch (this) {
            case SOFTMAX_CROSS_ENTROPY -> Transforms.softmax(logits, true);
            case SIGMOID_CROSS_ENTROPY -> Transforms.sigmoid(logits, true);
            case IDENTITY_HALF_SQUARED_ERROR -> logits.dup();
        };
    }

    /** The head applied to logits in a SameDiff graph. */
    public SDVariable apply(SameDiff sd, SDVariable logits) {
        return switch (this) {
            case SOFTMAX_CROSS_ENTROPY -> sd.nn.softmax(logits, 1);
            case SIGMOID_CROSS_ENTROPY -> sd.nn.sigmoid(logits);
            case IDENTITY_HALF_SQUARED_ERROR -> sd.identity(logits);
        };
    }

    /**
     * The vector-Jacobian product of the head at output {@code p}: given {@code dD/dp}, returns {@code dD/dz}.
     * Softmax: {@code p * (g - rowSum(g * p))}; sigmoid: {@code g * p * (1 - p)}; identity: {@code g}.
     */
    public INDArray backpropagate(INDArray p, INDArray g) {
        return switch (this) {
            case SOFTMAX_CROSS_ENTROPY -> g.subColumnVector(g.mul(p).sum(true, 1)).muli(p);
            case SIGMOID_CROSS_ENTROPY -> p.rsub(1.0).muli(p).muli(g);
            case IDENTITY_HALF_SQUARED_ERROR -> g.dup();
        };
    }

    /** The head applied to one example's logits {@code z[0..k)}, into {@code p}. */
    public void apply(double[] z, double[] p, int k) {
        switch (this) {
            case SOFTMAX_CROSS_ENTROPY -> {
                double max = Double.NEGATIVE_INFINITY;
                for (int c = 0; c < k; c++) {
                    max = Math.max(max, z[c]);
                }
                double total = 0;
                for (int c = 0; c < k; c++) {
                    p[c] = Math.exp(z[c] - max);
                    total += p[c];
                }
                for (int c = 0; c < k; c++) {
                    p[c] /= total;
                }
            }
            case SIGMOID_CROSS_ENTROPY -> {
                for (int c = 0; c < k; c++) {
                    p[c] = 1.0 / (1.0 + Math.exp(-z[c]));
                }
            }
            case IDENTITY_HALF_SQUARED_ERROR -> System.arraycopy(z, 0, p, 0, k);
        }
    }

    /**
     * The vector-Jacobian product of the head for one example at output {@code p[0..k)}: {@code out = J^T g}, as
     * {@link #backpropagate(INDArray, INDArray)} for a row.
     */
    public void backpropagate(double[] p, double[] g, double[] out, int k) {
        switch (this) {
            case SOFTMAX_CROSS_ENTROPY -> {
                double dot = 0;
                for (int c = 0; c < k; c++) {
                    dot += g[c] * p[c];
                }
                for (int c = 0; c < k; c++) {
                    out[c] = p[c] * (g[c] - dot);
                }
            }
            case SIGMOID_CROSS_ENTROPY -> {
                for (int c = 0; c < k; c++) {
                    out[c] = g[c] * p[c] * (1 - p[c]);
                }
            }
            case IDENTITY_HALF_SQUARED_ERROR -> System.arraycopy(g, 0, out, 0, k);
        }
    }

    /** Whether the model has one output per class with a softmax over them (labels are one class each). */
    public boolean isMulticlass() {
        return this == SOFTMAX_CROSS_ENTROPY;
    }
}
