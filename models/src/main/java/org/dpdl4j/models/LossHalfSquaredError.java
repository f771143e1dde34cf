package org.dpdl4j.models;

import java.util.Arrays;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.lossfunctions.ILossFunction;
import org.nd4j.linalg.lossfunctions.LossUtil;

/**
 * Half squared error, {@code l(yhat, y) = 1/2 * sum_j (yhat_j - y_j)^2} per example, with
 * {@code yhat = activation(preOutput)}. DL4J's {@code LossL2} omits the 1/2 (its gradient is twice this
 * one) and {@code LossMSE} also divides by the number of outputs; this is the textbook least-squares loss
 * {@code f(x) = 1/2 ||A x - b||^2} of the papers.
 *
 * <p>Masks follow DL4J's convention: a column vector masks whole examples, an array shaped like the labels
 * masks single outputs, and a masked entry contributes neither score nor gradient. (With an activation that
 * mixes outputs, such as softmax, the masked score still depends on a masked pre-output through the
 * normalisation; like DL4J's own losses, its gradient there is set to zero.) The class is stateless, so all instances are equal and its JSON form is just its
 * class name.
 */
public final class LossHalfSquaredError implements ILossFunction {
    private static final long serialVersionUID = 1L;

    /** Per-output half squared errors, masked. */
    private static INDArray halfSquaredErrors(INDArray labels, INDArray preOutput, IActivation activationFn,
                                              INDArray mask) {
        INDArray residual = residual(labels, preOutput, activationFn);
        INDArray scores = residual.muli(residual).muli(0.5);
        if (mask != null) {
            LossUtil.applyMask(scores, mask);
        }
        return scores;
    }

    /** {@code activation(preOutput) - labels}, in the data type of the pre-output. */
    private static INDArray residual(INDArray labels, INDArray preOutput, IActivation activationFn) {
        if (labels == null || preOutput == null || activationFn == null) {
            throw new IllegalArgumentException("LossHalfSquaredError: labels, preOutput and activation must not be null");
        }
        if (!Arrays.equals(labels.shape(), preOutput.shape())) {
            throw new IllegalArgumentException("LossHalfSquaredError: labels have shape "
                    + Arrays.toString(labels.shape()) + " but the network output has shape "
                    + Arrays.toString(preOutput.shape()) + "; give one label column per output unit");
        }
        INDArray output = activationFn.getActivation(preOutput.dup(), true);
        return output.subi(labels.castTo(preOutput.dataType()));
    }

    @Override
    public double computeScore(INDArray labels, INDArray preOutput, IActivation activationFn, INDArray mask,
                               boolean average) {
        INDArray scores = halfSquaredErrors(labels, preOutput, activationFn, mask);
        double sum = scores.sumNumber().doubleValue();
        return average ? sum / scores.size(0) : sum;
    }

    @Override
    public INDArray computeScoreArray(INDArray labels, INDArray preOutput, IActivation activationFn, INDArray mask) {
        return halfSquaredErrors(labels, preOutput, activationFn, mask).sum(true, 1);
    }

    @Override
    public INDArray computeGradient(INDArray labels, INDArray preOutput, IActivation activationFn, INDArray mask) {
        // dl/dyhat = yhat - y; the activation maps it to dl/dpreOutput.
        INDArray dLdOutput = residual(labels, preOutput, activationFn);
        if (mask != null && LossUtil.isPerOutputMasking(dLdOutput, mask)) {
            // Needed before backprop for activations that mix outputs (softmax); harmless otherwise.
            LossUtil.applyMask(dLdOutput, mask);
        }
        INDArray gradient = activationFn.backprop(preOutput.dup(), dLdOutput).getFirst();
        if (mask != null) {
            LossUtil.applyMask(gradient, mask);
        }
        return gradient;
    }

    @Override
    public Pair<Double, INDArray> computeGradientAndScore(INDArray labels, INDArray preOutput,
                                                          IActivation activationFn, INDArray mask,
                                                          boolean average) {
        return new Pair<>(computeScore(labels, preOutput, activationFn, mask, average),
                computeGradient(labels, preOutput, activationFn, mask));
    }

    @Override
    public String name() {
        return toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LossHalfSquaredError;
    }

    @Override
    public int hashCode() {
        return LossHalfSquaredError.class.getName().hashCode();
    }

    @Override
    public String toString() {
        return "LossHalfSquaredError()";
    }
}
