package org.dpdl4j.attacks.membership;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.dpdl4j.protocol.personalized.ModelBroadcast;
import org.dpdl4j.protocol.personalized.PersonalizedProblem;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The network eavesdropper of personalized coordinate descent (spec 6.1's adversary: it sees every broadcast and
 * knows the public start). It keeps every agent's last broadcast model, so when agent i broadcasts
 * {@code Theta_i+ = (1 - alpha_i) Theta_i + alpha_i (sum_j (W_ij / D_ii) Theta_j - mu c_i (grad L_i(Theta_i) + eta))}
 * it solves for the data part of the local gradient:
 * <pre>
 *   g = (sum_j (W_ij / D_ii) Theta_j - (Theta_i+ - (1 - alpha_i) Theta_i) / alpha_i) / (mu c_i) - 2 lambda_i Theta_i
 *     = (1/m_i) sum_k grad l(Theta_i; x_k, y_k) + eta.
 * </pre>
 * It reads only public quantities of the problem: the similarity graph, mu, every agent's confidence and
 * regularisation (both set by m_i, which this adversary is assumed to know) and step alpha_i.
 */
public final class BroadcastInverter implements Consumer<ModelBroadcast> {
    private final PersonalizedProblem problem;
    private final INDArray observed;
    private final List<List<ObservedGradient>> byAgent = new ArrayList<>();

    /**
     * @param problem the run's problem (only its public parameters are read)
     * @param start   the models every agent starts from [n, p], public (zero without a warm start)
     */
    public BroadcastInverter(PersonalizedProblem problem, INDArray start) {
        this.problem = Objects.requireNonNull(problem, "problem");
        this.observed = start.castTo(DataType.DOUBLE).dup('c');
        for (int i = 0; i < problem.agentCount(); i++) {
            byAgent.add(new ArrayList<>());
        }
    }

    @Override
    public void accept(ModelBroadcast b) {
        int i = b.agent();
        int p = problem.dimension();
        INDArray before = observed.getRow(i).dup().reshape(p);
        double alpha = problem.alpha(i);
        INDArray step = b.model().castTo(DataType.DOUBLE).sub(before.mul(1 - alpha)).divi(alpha);
        INDArray gradient = problem.neighbourAverage(i, observed).subi(step).divi(problem.mu() * problem.confidence(i))
                .subi(before.mul(2 * problem.lambda(i)));
        byAgent.get(i).add(new ObservedGradient(i, b.wake(), before, gradient));
        observed.putRow(i, b.model().castTo(DataType.DOUBLE).reshape(1, p));
    }

    /** The gradients recovered from agent i's broadcasts so far, in order. */
    public List<ObservedGradient> gradients(int agent) {
        return List.copyOf(byAgent.get(agent));
    }
}
