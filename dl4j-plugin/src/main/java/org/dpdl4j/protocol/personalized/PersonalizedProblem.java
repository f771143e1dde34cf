package org.dpdl4j.protocol.personalized;

import java.util.List;
import org.dpdl4j.graph.SymmetricEigendecomposition;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The joint objective of personalized learning (spec 6.2): every agent i has its own linear model Theta_i in R^p,
 * pulled towards its neighbours' on a weighted similarity graph W,
 * <pre>
 *   Q(Theta) = 1/2 sum_{i<j} W_ij ||Theta_i - Theta_j||^2 + mu sum_i D_ii c_i L_i(Theta_i),
 *   L_i(theta) = (1/m_i) sum_k log(1 + exp(-y_k theta.x_k)) + lambda_i ||theta||^2,
 * </pre>
 * with {@code D_ii = sum_j W_ij} and confidences {@code c_i = m_i / max_j m_j}. Models are rows of one [n, p] array.
 * The block gradient is (4), {@code D_ii (Theta_i + mu c_i grad L_i) - sum_j W_ij Theta_j}, with block Lipschitz
 * constant {@code L_i = D_ii (1 + mu c_i L_i^loc)} and {@code L_i^loc = lambda_max(X^T X) / (4 m_i) + 2 lambda_i}, as
 * in the paper, or from a public bound B on the features' norm, {@code B^2 / 4 + 2 lambda_i}
 * ({@link #withPublicSmoothness}).
 */
public final class PersonalizedProblem {
    private final List<AgentData> agents;
    private final INDArray weights;
    private final double[] degree;
    private final int[] neighbourCount;
    private final double[] confidence;
    private final double[] lambda;
    private final double[] localSmoothness;
    private final double mu;
    private final int dimension;
    private final double featureNormBound;

    /**
     * @param agents  every agent's data (same p)
     * @param weights W [n, n]: symmetric, non-negative, zero diagonal; every agent needs a neighbour
     * @param lambda  lambda_i >= 0 per agent (the paper: 1 / m_i)
     * @param mu      the trade-off mu > 0
     */
    public PersonalizedProblem(List<AgentData> agents, double[][] weights, double[] lambda, double mu) {
        this.agents = List.copyOf(agents);
        int n = this.agents.size();
        if (n < 2) {
            throw new IllegalArgumentException("personalized learning needs at least 2 agents, got " + n);
        }
        if (!(mu > 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("mu must be positive and finite, got " + mu);
        }
        if (weights.length != n || lambda.length != n) {
            throw new IllegalArgumentException("W is " + weights.length + " x ? and lambda has " + lambda.length
                    + " entries, but there are " + n + " agents");
        }
        this.dimension = this.agents.get(0).dimension();
        this.degree = new double[n];
        this.neighbourCount = new int[n];
        this.confidence = new double[n];
        this.lambda = lambda.clone();
        this.localSmoothness = new double[n];
        this.mu = mu;
        this.featureNormBound = Double.NaN;
        int largest = this.agents.stream().mapToInt(AgentData::size).max().orElseThrow();
        for (int i = 0; i < n; i++) {
            if (weights[i].length != n) {
                throw new IllegalArgumentException("row " + i + " of W has " + weights[i].length + " entries, expected " + n);
            }
            if (this.agents.get(i).dimension() != dimension) {
                throw new IllegalArgumentException("agent " + i + " has dimension " + this.agents.get(i).dimension()
                        + " but agent 0 has " + dimension);
            }
            if (!(lambda[i] >= 0) || Double.isInfinite(lambda[i])) {
                throw new IllegalArgumentException("lambda_" + i + " must be finite and >= 0, got " + lambda[i]);
            }
            if (weights[i][i] != 0) {
                throw new IllegalArgumentException("W must have a zero diagonal; W[" + i + "][" + i + "] = " + weights[i][i]);
            }
            for (int j = 0; j < n; j++) {
                double w = weights[i][j];
                if (!(w >= 0) || Double.isInfinite(w) || w != weights[j][i]) {
                    throw new IllegalArgumentException("W must be symmetric, finite and non-negative; W[" + i + "][" + j + "] = "
                            + w + ", W[" + j + "][" + i + "] = " + weights[j][i]);
                }
                degree[i] += w;
                neighbourCount[i] += w > 0 ? 1 : 0;
            }
            if (degree[i] == 0) {
                throw new IllegalArgumentException("agent " + i + " has no neighbour (D_ii = 0): it cannot collaborate; drop it or"
                        + " keep smaller similarities (lower the weight threshold)");
            }
            AgentData a = this.agents.get(i);
            confidence[i] = a.size() / (double) largest;
            INDArray gram = a.features().transpose().mmul(a.features());
            localSmoothness[i] = largestEigenvalue(gram) / (4.0 * a.size()) + 2 * lambda[i];
        }
        this.weights = Nd4j.createFromArray(weights).castTo(DataType.DOUBLE);
    }

    private PersonalizedProblem(PersonalizedProblem base, double[] localSmoothness, double featureNormBound) {
        this.agents = base.agents;
        this.weights = base.weights;
        this.degree = base.degree;
        this.neighbourCount = base.neighbourCount;
        this.confidence = base.confidence;
        this.lambda = base.lambda;
        this.mu = base.mu;
        this.dimension = base.dimension;
        this.localSmoothness = localSmoothness;
        this.featureNormBound = featureNormBound;
    }

    /**
     * This problem with every agent's local smoothness from a public bound B on its features' L2 norm,
     * {@code B^2 / 4 + 2 lambda_i}: at least the paper's {@code lambda_max(X^T X) / (4 m_i) + 2 lambda_i} (the largest
     * eigenvalue of {@code X^T X} is at most {@code m_i max ||x||^2}), and a function of B and the public lambda_i
     * only, so that the update weights, the block constants and the optimal allocation's budgets made from it reveal
     * nothing about the records.
     *
     * @throws IllegalArgumentException if an agent has a feature row beyond B: its loss could then be less smooth
     *                                  than the steps assume
     */
    public PersonalizedProblem withPublicSmoothness(double bound) {
        org.dpdl4j.runtime.FeatureNormBound.require(bound);
        double[] smooth = new double[agentCount()];
        for (int i = 0; i < smooth.length; i++) {
            double largest = agents.get(i).maxL2Norm();
            if (largest > bound * (1 + 1e-9)) {
                throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "agent %d has a feature row of L2 norm"
                        + " %.6g, beyond the public bound --feature-norm-bound %s; raise the bound or scale the features into"
                        + " it", i, largest, bound));
            }
            smooth[i] = bound * bound / 4 + 2 * lambda[i];
        }
        return new PersonalizedProblem(this, smooth, bound);
    }

    /** The public feature bound the local smoothness follows, NaN when it follows each agent's data (the paper's). */
    public double featureNormBound() {
        return featureNormBound;
    }

    /** lambda_i = 1 / m_i for every agent, as in the paper's experiments. */
    public static double[] inverseSizes(List<AgentData> agents) {
        return agents.stream().mapToDouble(a -> 1.0 / a.size()).toArray();
    }

    /** The largest eigenvalue of X^T X, exactly (p is small): the local loss's smoothness must be an upper bound. */
    private static double largestEigenvalue(INDArray gram) {
        INDArray symmetric = gram.add(gram.transpose()).muli(0.5);
        return java.util.Arrays.stream(SymmetricEigendecomposition.of(symmetric.toDoubleMatrix()).eigenvalues()).max().orElse(0);
    }

    /** n. */
    public int agentCount() {
        return agents.size();
    }

    /** p. */
    public int dimension() {
        return dimension;
    }

    public AgentData agent(int i) {
        return agents.get(i);
    }

    public List<AgentData> agents() {
        return agents;
    }

    /** W_ij. */
    public double weight(int i, int j) {
        return weights.getDouble(i, j);
    }

    /** The neighbours j with W_ij > 0. */
    public int[] neighbours(int i) {
        return java.util.stream.IntStream.range(0, agentCount()).filter(j -> weight(i, j) > 0).toArray();
    }

    /** |N_i|: how many agents receive agent i's broadcast. */
    public int neighbourCount(int i) {
        return neighbourCount[i];
    }

    public double degree(int i) {
        return degree[i];
    }

    public double confidence(int i) {
        return confidence[i];
    }

    public double lambda(int i) {
        return lambda[i];
    }

    public double mu() {
        return mu;
    }

    /** L_i^loc, the smoothness of agent i's local loss. */
    public double localSmoothness(int i) {
        return localSmoothness[i];
    }

    /** sigma_i^loc = 2 lambda_i, the strong convexity of agent i's local loss. */
    public double localStrongConvexity(int i) {
        return 2 * lambda[i];
    }

    /** L_i = D_ii (1 + mu c_i L_i^loc), the Lipschitz constant of block i of grad Q. */
    public double blockLipschitz(int i) {
        return degree[i] * (1 + mu * confidence[i] * localSmoothness[i]);
    }

    /** alpha_i = 1 / (1 + mu c_i L_i^loc), the weight of the update (5). */
    public double alpha(int i) {
        return 1 / (1 + mu * confidence[i] * localSmoothness[i]);
    }

    /** sigma >= mu min_i D_ii c_i sigma_i^loc, the strong convexity of Q used by Proposition 1 and Proposition 2. */
    public double strongConvexity() {
        double s = Double.POSITIVE_INFINITY;
        for (int i = 0; i < agentCount(); i++) {
            s = Math.min(s, mu * degree[i] * confidence[i] * localStrongConvexity(i));
        }
        return s;
    }

    /** The largest block Lipschitz constant. */
    public double maxBlockLipschitz() {
        double l = 0;
        for (int i = 0; i < agentCount(); i++) {
            l = Math.max(l, blockLipschitz(i));
        }
        return l;
    }

    /** L_i(theta): agent i's regularised mean logistic loss. */
    public double localLoss(int i, INDArray theta) {
        double norm = theta.norm2Number().doubleValue();
        return agents.get(i).logisticLoss(theta) + lambda[i] * norm * norm;
    }

    /** grad L_i(theta) [p]: {@code -(1/m) sum_k y_k x_k sigmoid(-y_k theta.x_k) + 2 lambda_i theta}. */
    public INDArray localGradient(int i, INDArray theta) {
        AgentData a = agents.get(i);
        INDArray t = theta.reshape(dimension, 1);
        INDArray margins = a.features().mmul(t).reshape(a.size()).muli(a.labels());
        INDArray coefficients = Transforms.sigmoid(margins.neg(), false).muli(a.labels()).negi().divi(a.size());
        INDArray g = a.features().transpose().mmul(coefficients.reshape(a.size(), 1)).reshape(dimension);
        return g.addi(theta.reshape(dimension).mul(2 * lambda[i]));
    }

    /**
     * The Hessian of L_i at theta [p, p]: {@code (1/m) X^T diag(s (1 - s)) X + 2 lambda_i I} with
     * {@code s = sigmoid(y theta.x)} (the same for either sign of y).
     */
    public INDArray localHessian(int i, INDArray theta) {
        AgentData a = agents.get(i);
        INDArray s = Transforms.sigmoid(a.features().mmul(theta.reshape(dimension, 1)), true);
        INDArray curvature = s.mul(s.rsub(1)).divi(a.size());
        INDArray h = a.features().transpose().mmul(a.features().mulColumnVector(curvature));
        return h.addi(Nd4j.eye(dimension).castTo(DataType.DOUBLE).muli(2 * lambda[i]));
    }

    /** [grad Q(Theta)]_i, equation (4). */
    public INDArray blockGradient(int i, INDArray models) {
        INDArray own = models.getRow(i).reshape(dimension);
        INDArray pull = weights.getRow(i).reshape(1, agentCount()).mmul(models).reshape(dimension);
        return own.add(localGradient(i, own).muli(mu * confidence[i])).muli(degree[i]).subi(pull);
    }

    /** {@code sum_j (W_ij / D_ii) Theta_j}: the neighbours' weighted average. */
    public INDArray neighbourAverage(int i, INDArray models) {
        return weights.getRow(i).reshape(1, agentCount()).mmul(models).reshape(dimension).divi(degree[i]);
    }

    /** Q(Theta), equation (3). */
    public double objective(INDArray models) {
        double q = disagreement(models);
        for (int i = 0; i < agentCount(); i++) {
            q += mu * degree[i] * confidence[i] * localLoss(i, models.getRow(i));
        }
        return q;
    }

    /**
     * {@code 1/2 sum_{i<j} W_ij ||Theta_i - Theta_j||^2 = 1/2 (sum_i D_ii ||Theta_i||^2 - sum_ij W_ij Theta_i . Theta_j)}, the
     * graph term of the objectives.
     */
    public double disagreement(INDArray models) {
        INDArray squares = models.mul(models).sum(1);
        double diagonal = Nd4j.createFromArray(degree).mul(squares).sumNumber().doubleValue();
        double cross = weights.mul(models.mmul(models.transpose())).sumNumber().doubleValue();
        return 0.5 * (diagonal - cross);
    }

    /** A new [n, p] array of zeros. */
    public INDArray zeros() {
        return Nd4j.zeros(DataType.DOUBLE, agentCount(), dimension);
    }

    /** Mean over agents of each agent's accuracy on its own examples (for example its test set). */
    public static double meanAccuracy(List<AgentData> sets, INDArray models) {
        double sum = 0;
        for (int i = 0; i < sets.size(); i++) {
            sum += sets.get(i).accuracy(models.getRow(i));
        }
        return sum / sets.size();
    }
}
