package org.dpdl4j.attacks.membership;

import java.util.List;
import org.dpdl4j.protocol.personalized.AgentData;
import org.dpdl4j.protocol.personalized.PersonalizedProblem;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;
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

    /**
     * The attack's mean AUC over the agents of a run the inverter watched: agent i's members are its training records,
     * its non-members as many records of {@code outsiders.get(i)} (fresh draws from the same distribution, such as its
     * test set), all of them scored against the gradients recovered from its broadcasts.
     */
    public static double meanAuc(BroadcastInverter inverter, PersonalizedProblem problem, List<AgentData> outsiders) {
        if (outsiders.size() != problem.agentCount()) {
            throw new IllegalArgumentException("one pool of non-members per agent: " + outsiders.size() + " pools for "
                    + problem.agentCount() + " agents");
        }
        double sum = 0;
        for (int i = 0; i < problem.agentCount(); i++) {
            AgentData members = problem.agent(i);
            AgentData pool = outsiders.get(i);
            int m = Math.min(members.size(), pool.size());
            INDArray outX = pool.features().get(NDArrayIndex.interval(0, m), NDArrayIndex.all());
            INDArray outY = pool.labels().get(NDArrayIndex.interval(0, m));
            List<ObservedGradient> seen = inverter.gradients(i);
            sum += Auc.of(scores(seen, members.features(), members.labels()), scores(seen, outX, outY));
        }
        return sum / problem.agentCount();
    }
}
