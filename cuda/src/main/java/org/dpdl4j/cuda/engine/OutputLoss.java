package org.dpdl4j.cuda.engine;

/**
 * An output layer's activation and loss, as DL4J computes them per example: softmax with multi-class cross-entropy,
 * sigmoid with binary cross-entropy (probabilities clipped to [eps, 1 - eps] in the loss), or squared error after an
 * activation (summed over the outputs, or averaged for DL4J's MSE).
 *
 * @param kind       which loss
 * @param clipEps    the probability clipping of the cross-entropies (0 for none); 0 for squared error
 * @param activation the output activation of the squared error; null for the cross-entropies (theirs is fixed)
 * @param mean       squared error averaged over the outputs (DL4J's MSE) rather than summed (L2)
 */
public record OutputLoss(Kind kind, double clipEps, Activation activation, boolean mean) {
    /** The losses with a kernel. */
    public enum Kind { SOFTMAX_CROSS_ENTROPY, SIGMOID_CROSS_ENTROPY, SQUARED_ERROR }

    public OutputLoss {
        if (kind == null) {
            throw new IllegalArgumentException("an output loss needs its kind");
        }
        if (!(clipEps >= 0 && clipEps < 0.5)) {
            throw new IllegalArgumentException("the probability clipping must lie in [0, 0.5), got " + clipEps);
        }
        if ((kind == Kind.SQUARED_ERROR) != (activation != null)) {
            throw new IllegalArgumentException("squared error needs its output activation, and the cross-entropies none"
                    + " (theirs is softmax or sigmoid); got " + kind + " with " + activation);
        }
    }

    /** Softmax + cross-entropy (DL4J's MCXENT with a softmax output). */
    public static OutputLoss softmaxCrossEntropy(double clipEps) {
        return new OutputLoss(Kind.SOFTMAX_CROSS_ENTROPY, clipEps, null, false);
    }

    /** Sigmoid + binary cross-entropy (DL4J's XENT with a sigmoid output). */
    public static OutputLoss sigmoidCrossEntropy(double clipEps) {
        return new OutputLoss(Kind.SIGMOID_CROSS_ENTROPY, clipEps, null, false);
    }

    /** Squared error after {@code activation}: summed (L2) or averaged over the outputs (MSE). */
    public static OutputLoss squaredError(Activation activation, boolean mean) {
        return new OutputLoss(Kind.SQUARED_ERROR, 0, activation, mean);
    }
}
