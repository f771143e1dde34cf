package org.dpdl4j.protocol.recal;

import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The synchronous AFBS primal-dual iteration (6a)-(6d) of spec 5.2, every agent at once (the algorithm RECAL
 * runs by relay): with the sum of all duals available each iteration (a coordinator or an all-reduce),
 * <pre>
 *   x_bar   = x - tau (grad f(x) + lam)                     (6a, every agent)
 *   y_bar   = prox_{gamma g}(y + gamma sum_j lam_j)          (6b)
 *   lam_bar = lam + beta (theta (x_bar - y_bar) + (1 - theta)(x - y))   (6c)
 *   x+ = x_bar - mu (2-theta) tau (lam_bar - lam),  y+ = y_bar + mu (2-theta) gamma sum_j (lam_bar_j - lam_j),
 *   lam+ = lam_bar + (1-mu)(2-theta) beta ((x_bar - x) - (y_bar - y))   (6d)
 * </pre>
 * Non-private. Messages: every agent sends its dual to the coordinator and receives y, 2n per iteration.
 */
public final class SynchronousAfbs extends CompositeRun {
    /** The protocol name. */
    public static final String PROTOCOL = "recal-sync";

    private final RecalSteps steps;
    private final INDArray x;
    private final INDArray lambda;
    private final INDArray y;
    private final INDArray tau;
    private final INDArray beta;
    private double lastCorrection;
    private final StepOrigin origin;

    SynchronousAfbs(RunSettings settings, CompositeProblem problem, LinearModel model, RecalSteps steps, long iterations,
                    StepOrigin origin) {
        super(PROTOCOL, settings, null, problem, model, iterations);
        if (steps.agents() != problem.agentCount()) {
            throw new IllegalArgumentException("the steps are for " + steps.agents() + " agents but the problem has " + problem.agentCount());
        }
        this.steps = steps;
        this.origin = java.util.Objects.requireNonNull(origin, "origin");
        int n = problem.agentCount();
        this.x = Nd4j.zeros(DataType.DOUBLE, n, problem.rows() * problem.columns());
        this.lambda = x.dup();
        this.y = problem.zeros();
        this.tau = Nd4j.createFromArray(steps.tau()).reshape(n, 1);
        this.beta = Nd4j.createFromArray(steps.beta()).reshape(n, 1);
    }

    @Override
    protected void takeStep(long k) {
        int n = problem.agentCount();
        int q = problem.rows();
        int c = problem.columns();
        INDArray grads = Nd4j.zeros(DataType.DOUBLE, n, q * c);
        INDArray g = problem.zeros();
        double loss = 0;
        for (int i = 0; i < n; i++) {
            loss += problem.agent(i).gradient(x.getRow(i).reshape(q, c), Double.POSITIVE_INFINITY, g);
            grads.putRow(i, g.reshape(q * c));
        }
        INDArray yRow = y.reshape(1, q * c);
        INDArray xBar = x.sub(grads.addi(lambda).muliColumnVector(tau));
        INDArray yBar = problem.prox(y.add(lambda.sum(0).reshape(q, c).muli(steps.gamma())), steps.gamma()).reshape(1, q * c);
        double theta = steps.theta();
        double relax = 2 - theta;
        INDArray lamBar = xBar.subRowVector(yBar).muli(theta).addi(x.subRowVector(yRow).muli(1 - theta)).muliColumnVector(beta)
                .addi(lambda);
        INDArray dual = lamBar.sub(lambda);
        INDArray xCorrection = dual.mulColumnVector(tau).muli(-steps.mu() * relax);
        INDArray yCorrection = dual.sum(0).reshape(1, q * c).muli(steps.mu() * relax * steps.gamma());
        INDArray lamCorrection = xBar.sub(x).subiRowVector(yBar.sub(yRow)).muliColumnVector(beta).muli((1 - steps.mu()) * relax);
        lastCorrection = Math.max(xCorrection.normmaxNumber().doubleValue(),
                Math.max(yCorrection.normmaxNumber().doubleValue(), lamCorrection.normmaxNumber().doubleValue()));
        x.assign(xBar.addi(xCorrection));
        y.assign(yBar.addi(yCorrection).reshape(q, c));
        lambda.assign(lamBar.addi(lamCorrection));
        messages += 2L * n;
        measuredLoss(loss / problem.records());
    }

    /** Every agent sends its dual every iteration. */
    @Override
    public long lci() {
        return completedSteps();
    }

    /** The largest entry of the last iteration's (6d) correction terms: exactly 0 when theta = 2. */
    public double lastCorrection() {
        return lastCorrection;
    }

    @Override
    public INDArray output() {
        return y.dup();
    }

    @Override
    public INDArray localModels() {
        return x.dup().reshape(problem.agentCount(), problem.rows(), problem.columns());
    }

    public RecalSteps steps() {
        return steps;
    }

    @Override
    protected void protocolValues(java.util.Map<String, Object> r) {
        r.put("gamma", steps.gamma());
        r.put("theta", steps.theta());
        r.put("mu", steps.mu());
        r.put("stepCondition", stepCondition(steps, origin));
    }

    @Override
    public RunState state() {
        return RunState.builder().array("x", x).array("lambda", lambda).array("y", y).number("messages", messages).build();
    }

    @Override
    protected void restoreState(RunState state, long completed) {
        x.assign(state.array("x", x.shape()));
        lambda.assign(state.array("lambda", lambda.shape()));
        y.assign(state.array("y", y.shape()));
        messages = state.longValue("messages");
    }
}
