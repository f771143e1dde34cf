package org.dpdl4j.attacks.membership;

import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * Membership scores from recovered local gradients of the logistic loss: a candidate record z = (x, y) scores
 * {@code sum_t <g_t, grad l(theta_t; z)>} over the sender's observed gradients, with
 * {@code grad l(theta; z) = -y x sigmoid(-y theta.x)}. A member's own gradient is one of the m_i terms of every
 * {@code g_t}, so it adds {@code ||grad l(theta_t; z)||^2 / m_i} to its score that a non-member lacks; in high dimension
 * the other terms are nearly orthogonal to it and the two groups separate.
 */
public final class GradientAlignmentMembership {
    private GradientAlignmentMembership() {
    }

    /**
     * @param observed   one agent's recovered gradients
     * @param candidates the candidate records' features [k, p]
     * @param labels     their labels in {-1, +1} [k]
     * @return the score of every candidate (higher: more likely a member)
     */
    public static double[] scores(List<ObservedGradient> observed, INDArray candidates, INDArray labels) {
        INDArray x = candidates.castTo(DataType.DOUBLE);
        INDArray y = labels.castTo(DataType.DOUBLE).reshape(x.size(0), 1);
        INDArray total = org.nd4j.linalg.factory.Nd4j.zeros(DataType.DOUBLE, x.size(0), 1);
        for (ObservedGradient o : observed) {
            INDArray margins = x.mmul(o.theta().reshape(x.size(1), 1)).muli(y);
            INDArray weight = Transforms.sigmoid(margins.neg(), false).muli(y).negi();     // [k, 1]
            total.addi(x.mmul(o.gradient().reshape(x.size(1), 1)).muli(weight));
        }
        return total.reshape(x.size(0)).toDoubleVector();
    }
}
