package org.dpdl4j.protocol.recal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The distributed composite problem {@code min_X sum_i f_i(X; D_i) + g(X)} (spec 5.1): n agents' smooth losses
 * over their own records and one penalty. The model is linear, {@code X} of shape [q, c]: q = features (plus one
 * unpenalised intercept row when {@code intercept}), c = outputs.
 */
public final class CompositeProblem {
    private final List<LocalProblem> agents;
    private final Penalty penalty;
    private final int penalized;
    private final boolean intercept;

    /**
     * @param agents    the agents' local losses, all with the same q and c
     * @param penalty   g
     * @param intercept whether the last row of X is an intercept (features end in a column of ones; not penalised)
     */
    public CompositeProblem(List<LocalProblem> agents, Penalty penalty, boolean intercept) {
        this.agents = List.copyOf(agents);
        this.penalty = Objects.requireNonNull(penalty, "penalty");
        this.intercept = intercept;
        if (this.agents.isEmpty()) {
            throw new IllegalArgumentException("a distributed problem needs at least one agent");
        }
        LocalProblem first = this.agents.get(0);
        for (int i = 1; i < this.agents.size(); i++) {
            LocalProblem p = this.agents.get(i);
            if (p.inputs() != first.inputs() || p.outputs() != first.outputs() || p.loss() != first.loss()) {
                throw new IllegalArgumentException("agent " + i + " has a " + p.inputs() + " x " + p.outputs() + " " + p.loss().cliName()
                        + " problem but agent 0 a " + first.inputs() + " x " + first.outputs() + " " + first.loss().cliName()
                        + " one; every agent must fit the same model");
            }
        }
        this.penalized = (int) first.inputs() - (intercept ? 1 : 0);
    }

    /**
     * The problem of the agents' data sets (features [m_i, p], targets [m_i, c]).
     *
     * @param intercept append a column of ones (an unpenalised intercept row of X)
     */
    public static CompositeProblem of(List<NodeData> data, SmoothLoss loss, Penalty penalty, boolean intercept) {
        List<LocalProblem> agents = new ArrayList<>(data.size());
        for (NodeData d : data) {
            INDArray f = d.features().castTo(DataType.DOUBLE);
            if (intercept) {
                f = Nd4j.hstack(f, Nd4j.ones(DataType.DOUBLE, f.size(0), 1));
            }
            agents.add(new LocalProblem(f, d.labels(), loss));
        }
        return new CompositeProblem(agents, penalty, intercept);
    }

    public int agentCount() {
        return agents.size();
    }

    public LocalProblem agent(int i) {
        return agents.get(i);
    }

    public List<LocalProblem> agents() {
        return agents;
    }

    public Penalty penalty() {
        return penalty;
    }

    /** Rows of X the penalty applies to (all but an intercept). */
    public int penalizedRows() {
        return penalized;
    }

    public boolean hasIntercept() {
        return intercept;
    }

    /** q. */
    public int rows() {
        return (int) agents.get(0).inputs();
    }

    /** c. */
    public int columns() {
        return (int) agents.get(0).outputs();
    }

    /** Total number of records. */
    public long records() {
        return agents.stream().mapToLong(LocalProblem::size).sum();
    }

    /** L_i of every agent. */
    public double[] smoothness() {
        return agents.stream().mapToDouble(LocalProblem::smoothness).toArray();
    }

    /**
     * Every agent's smoothness from a public bound B on its records' feature norms: {@code c m_i (B^2 + 1)} with an
     * intercept, {@code c m_i B^2} without (c the loss's curvature). It is at least L_i, as {@code lambda_max(A^T A)} is
     * at most the trace {@code sum_j ||a_j||^2}, and depends on nothing but B and the record counts, so steps and noise
     * made from it reveal nothing about the records' values.
     *
     * @throws IllegalArgumentException if an agent holds a record beyond the bound: steps made from it would be too
     *                                  large for that agent's loss
     */
    public double[] publicSmoothness(double featureNormBound) {
        org.dpdl4j.runtime.FeatureNormBound.require(featureNormBound);
        double rowSquared = featureNormBound * featureNormBound + (intercept ? 1 : 0);
        double[] out = new double[agents.size()];
        for (int i = 0; i < out.length; i++) {
            LocalProblem agent = agents.get(i);
            double largest = agent.largestRecordNorm();
            if (largest * largest > rowSquared * (1 + 1e-9)) {
                double features = Math.sqrt(Math.max(0, largest * largest - (intercept ? 1 : 0)));
                throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "agent %d holds a record whose"
                        + " features have norm %.6g, beyond the public bound --feature-norm-bound %s; raise the bound to at"
                        + " least the largest norm the features can take (sqrt(p) for p features in [-1, 1]) or scale the"
                        + " features into it", i, features, featureNormBound));
            }
            out[i] = agent.loss().curvature() * agent.size() * rowSquared;
        }
        return out;
    }

    /** {@code prox_{step g}(v)} in place. */
    public INDArray prox(INDArray v, double step) {
        return penalty.proxInPlace(v, step, penalized);
    }

    /** The objective {@code sum_i f_i(X) + g(X)}: a pass over every record. */
    public double objective(INDArray x) {
        double v = penalty.value(x, penalized);
        for (LocalProblem p : agents) {
            v += p.value(x);
        }
        return v;
    }

    /** A zero model [q, c]. */
    public INDArray zeros() {
        return Nd4j.zeros(DataType.DOUBLE, rows(), columns());
    }
}
