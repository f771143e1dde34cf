package org.dpdl4j.protocol.personalized;

import org.dpdl4j.linalg.SpdSystems;
import org.dpdl4j.privacy.noise.LaplaceNoise;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Purely local models (the perfectly private baseline of spec 6.1) and their private release by output perturbation
 * (spec 6.5, Chaudhuri et al. 2011), the first half of the private warm start.
 */
public final class LocalModels {
    /** Stop when the local gradient's norm is at most this. */
    public static final double TOLERANCE = 1e-10;
    private static final int MAX_ITERATIONS = 200;

    private LocalModels() {
    }

    /**
     * Theta^loc [n, p]: every agent's minimiser of its regularised local loss, by damped Newton steps (the loss is
     * {@code 2 lambda_i}-strongly convex and p is small, so a few p x p solves converge quadratically even when the
     * features are large, as on locally private data, where gradient descent would crawl).
     *
     * @throws IllegalStateException if an agent's gradient is not below {@link #TOLERANCE} after the iteration cap
     */
    public static INDArray solve(PersonalizedProblem problem) {
        INDArray out = problem.zeros();
        for (int i = 0; i < problem.agentCount(); i++) {
            out.putRow(i, newton(problem, i).reshape(1, problem.dimension()));
        }
        return out;
    }

    private static INDArray newton(PersonalizedProblem problem, int i) {
        INDArray theta = Nd4j.zeros(DataType.DOUBLE, problem.dimension());
        double loss = problem.localLoss(i, theta);
        for (int k = 0; k < MAX_ITERATIONS; k++) {
            INDArray g = problem.localGradient(i, theta);
            double gradientNorm = g.norm2Number().doubleValue();
            if (gradientNorm <= TOLERANCE) {
                return theta;
            }
            double[] step = SpdSystems.solve(problem.localHessian(i, theta).toDoubleMatrix(), g.toDoubleVector());
            if (step == null) {
                throw new IllegalStateException("agent " + i + "'s local Hessian is not positive definite; lambda_i = "
                        + problem.lambda(i) + " must be > 0");
            }
            INDArray direction = Nd4j.createFromArray(step);
            double decrease = g.mul(direction).sumNumber().doubleValue();
            INDArray next = theta.sub(direction);
            double nextLoss = problem.localLoss(i, next);
            // near the minimiser the loss no longer resolves the decrease; the full step is accepted when it halves
            // the gradient (Newton's quadratic phase), otherwise backtracking (Armijo) on the loss
            boolean accepted = nextLoss <= loss - 0.25 * decrease
                    || problem.localGradient(i, next).norm2Number().doubleValue() < 0.5 * gradientNorm;
            for (double t = 0.5; !accepted && t > 1e-12; t /= 2) {
                next = theta.sub(direction.mul(t));
                nextLoss = problem.localLoss(i, next);
                accepted = nextLoss <= loss - 0.25 * t * decrease;
            }
            if (!accepted) {
                throw new IllegalStateException(String.format(java.util.Locale.ROOT, "agent %d's local model stalled at gradient norm"
                        + " %.3g (no Newton step decreases the loss); its features may be too large for double precision", i, gradientNorm));
            }
            theta = next;
            loss = nextLoss;
        }
        throw new IllegalStateException("agent " + i + "'s local model did not converge in " + MAX_ITERATIONS + " Newton steps;"
                + " is lambda_i = " + problem.lambda(i) + " too small?");
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
