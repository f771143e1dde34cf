package org.dpdl4j.protocol.personalized;

import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Model propagation (spec 6.5, equation 15): every agent starts from a local model and, when it wakes, takes the exact
 * minimiser of its block of {@code Q_MP(Theta) = 1/2 (sum_{i<j} W_ij ||Theta_i - Theta_j||^2 + mu sum_i D_ii c_i
 * ||Theta_i - Theta_i^loc||^2)}:
 * <pre>
 *   Theta_i = ( sum_j (W_ij / D_ii) Theta_j + mu c_i Theta_i^loc ) / (1 + mu c_i).
 * </pre>
 * It reads no data, only the local models: run from privately released local models it costs no further privacy
 * (post-processing), which makes it the private warm start.
 */
public final class ModelPropagationRun extends PersonalizedRun {
    /** The protocol's name. */
    public static final String NAME = "model-propagation";

    private final INDArray local;

    /** @param local Theta^loc [n, p], also the starting models */
    public ModelPropagationRun(RunSettings settings, PersonalizedProblem problem, INDArray local, int[] schedule) {
        super(NAME, settings, null, problem, local, schedule);
        this.local = local.dup();
    }

    @Override
    protected void takeStep(long k) {
        int i = schedule[(int) k];
        double weight = problem.mu() * problem.confidence(i);
        INDArray next = problem.neighbourAverage(i, models).addi(local.getRow(i).reshape(problem.dimension()).mul(weight))
                .divi(1 + weight);
        models.putRow(i, next.reshape(1, problem.dimension()));
        wake(i, true);
        measuredNoLoss();
    }

    /** Q_MP of the current models. */
    @Override
    public double objective() {
        double q = problem.disagreement(models);
        INDArray gap = models.sub(local);
        INDArray squares = gap.mul(gap).sum(1);
        for (int i = 0; i < problem.agentCount(); i++) {
            q += 0.5 * problem.mu() * problem.degree(i) * problem.confidence(i) * squares.getDouble(i);
        }
        return q;
    }

    /**
     * The minimiser of Q_MP: the solution of {@code (diag(D_ii (1 + mu c_i)) - W) Theta = diag(mu D_ii c_i) Theta^loc}
     * (oracle 2 of spec 6.7), by a direct solve.
     */
    public static INDArray fixedPoint(PersonalizedProblem problem, INDArray local) {
        int n = problem.agentCount();
        double[][] a = new double[n][n];
        INDArray rhs = local.castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE).dup();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i][j] = -problem.weight(i, j);
            }
            double weight = problem.mu() * problem.confidence(i);
            a[i][i] = problem.degree(i) * (1 + weight);
            rhs.getRow(i).muli(problem.mu() * problem.degree(i) * problem.confidence(i));
        }
        INDArray matrix = org.nd4j.linalg.factory.Nd4j.createFromArray(a);
        return org.nd4j.linalg.inverse.InvertMatrix.invert(matrix, false).mmul(rhs);
    }
}
