package org.dpdl4j.protocol.personalized;

import org.dpdl4j.privacy.noise.LaplaceNoise;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Purely local models (the perfectly private baseline of spec 6.1) and their private release by output perturbation
 * (spec 6.5, Chaudhuri et al. 2011), the first half of the private warm start.
 */
public final class LocalModels {
    /** Stop when the local gradient's norm is at most this. */
    public static final double TOLERANCE = 1e-10;
    private static final int MAX_ITERATIONS = 100_000;

    private LocalModels() {
    }

    /**
     * Theta^loc [n, p]: every agent's minimiser of its regularised local loss, by gradient descent with step
     * {@code 1 / L_i^loc} (the loss is {@code 2 lambda_i}-strongly convex, so this converges linearly).
     *
     * @throws IllegalStateException if an agent's gradient is not below {@link #TOLERANCE} after the iteration cap
     */
    public static INDArray solve(PersonalizedProblem problem) {
        INDArray out = problem.zeros();
        for (int i = 0; i < problem.agentCount(); i++) {
            INDArray theta = out.getRow(i).reshape(problem.dimension()).dup();
            double step = 1 / problem.localSmoothness(i);
            int k = 0;
            for (; k < MAX_ITERATIONS; k++) {
                INDArray g = problem.localGradient(i, theta);
                if (g.norm2Number().doubleValue() <= TOLERANCE) {
                    break;
                }
                theta.subi(g.muli(step));
            }
            if (k == MAX_ITERATIONS) {
                throw new IllegalStateException("agent " + i + "'s local model did not converge in " + MAX_ITERATIONS + " gradient"
                        + " steps; is lambda_i = " + problem.lambda(i) + " too small?");
            }
            out.putRow(i, theta.reshape(1, problem.dimension()));
        }
        return out;
    }

    /**
     * The L2 sensitivity of agent i's local minimiser under replacing one example: {@code L_0 / (lambda_i m_i)}
     * (gradients of one example differ by at most {@code 2 L_0 / m_i}, the loss is {@code 2 lambda_i}-strongly convex).
     */
    public static double sensitivity(PersonalizedProblem problem, int agent, double lipschitzL2) {
        if (!(problem.lambda(agent) > 0)) {
            throw new IllegalArgumentException("output perturbation needs a strongly convex local loss: lambda_" + agent + " = "
                    + problem.lambda(agent) + "; use lambda_i > 0 (the paper: 1 / m_i)");
        }
        return lipschitzL2 / (problem.lambda(agent) * problem.agent(agent).size());
    }

    /**
     * Every local model released with pure {@code epsilon}-DP: plus noise of density {@code ~ exp(-epsilon ||b|| / Delta_i)}
     * (the L2 Laplace of {@link LaplaceNoise#l2Laplace}), drawn from agent i's private stream of round -1.
     *
     * @param lipschitzL2 L_0 of the loss in L2 (the features' largest L2 norm for the logistic loss)
     */
    public static INDArray perturb(PersonalizedProblem problem, INDArray local, double epsilon, double lipschitzL2, NoiseStreams streams) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("the warm start's epsilon must be positive and finite, got " + epsilon);
        }
        INDArray out = local.dup();
        for (int i = 0; i < problem.agentCount(); i++) {
            CoordinateDescentRun.requireBoundedFeatures(problem.agent(i), i, false, lipschitzL2);
            double scale = sensitivity(problem, i, lipschitzL2) / epsilon;
            out.getRow(i).addi(LaplaceNoise.l2Laplace(streams.privateNoise(i, -1), problem.dimension(), scale)
                    .reshape(problem.dimension()));
        }
        return out;
    }
}
