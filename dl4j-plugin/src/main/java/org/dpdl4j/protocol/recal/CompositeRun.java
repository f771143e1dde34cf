package org.dpdl4j.protocol.recal;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What the runs of the primal-dual protocols (RECAL, DP-RECAL, the synchronous AFBS iteration, PG-EXTRA, NIDS)
 * share: the composite problem, the linear DL4J model they output, the planned iterations and a counter of the
 * p-dimensional messages sent (one per vector sent to one agent).
 */
public abstract class CompositeRun extends AbstractTrainingRun {
    protected final CompositeProblem problem;
    protected final LinearModel model;
    private final long planned;
    protected long messages;

    protected CompositeRun(String protocol, RunSettings settings, RunLedger ledger, CompositeProblem problem, LinearModel model,
                           long planned) {
        super(protocol, settings, ledger);
        this.problem = Objects.requireNonNull(problem, "problem");
        this.model = Objects.requireNonNull(model, "model");
        model.layout().requireFits(problem);
        if (planned < 1) {
            throw new IllegalArgumentException("plan at least one iteration, got " + planned);
        }
        this.planned = planned;
    }

    /** Records how the data was split over the agents (nothing when the agents' data was given). */
    final void recordPartition(String text) {
        partitionReport(text);
    }

    /** The run's output model X [q, c] (a copy). */
    public abstract INDArray output();

    /** Vectors sent so far (one per vector delivered to one agent). */
    public long messages() {
        return messages;
    }

    /**
     * The local communication involvement so far: the most messages one agent has published (every agent's count for
     * the synchronous algorithms, which publish together each iteration).
     */
    public abstract long lci();

    /** The accounting of a private run's publications, or null for a run without noise. */
    public DecayingNoisePrivacy privacy() {
        return null;
    }

    /** G_rec, the bound of every record's gradient (+Infinity when nothing is clipped). */
    public double clip() {
        return Double.POSITIVE_INFINITY;
    }

    /** The values every run resolves (agents, iterations, penalty, and the noise of a private run) and its own. */
    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("agents", problem.agentCount());
        r.put("iterations", plannedSteps());
        r.put("penalty", problem.penalty().toString());
        protocolValues(r);
        DecayingNoisePrivacy noise = privacy();
        if (noise != null) {
            r.put("clip", clip());
            r.put("sigma", noise.sigma(0));
            r.put("zeta", noise.zeta());
            r.put("sensitivity", noise.sensitivity(0));
        }
        return r;
    }

    /** Adds the protocol's own resolved values (steps, relaxation) to {@code r}. */
    protected abstract void protocolValues(java.util.Map<String, Object> r);

    /** The agents' local models [n, q, c] (a copy). */
    public abstract INDArray localModels();

    /** Every agent's model as a row of DL4J parameters. */
    @Override
    public java.util.Optional<INDArray> partyParameters() {
        INDArray local = localModels();
        INDArray rows = org.nd4j.linalg.factory.Nd4j.create(model.network().params().dataType(), problem.agentCount(),
                model.network().numParams());
        for (int i = 0; i < problem.agentCount(); i++) {
            rows.putRow(i, model.flat(local.slice(i)));
        }
        return java.util.Optional.of(rows);
    }

    /**
     * Whether the steps meet spec 5.2's sufficient condition for theta = 2 (in words, for the run's configuration): the
     * condition is sufficient, not necessary, so a run with larger steps is allowed and says so. It is checked against
     * the smoothness the steps were made from, never the data's own when the steps follow a public bound: the report
     * is part of the run's output (a bound is at least the true constant, so "holds" stays sufficient).
     */
    protected final String stepCondition(RecalSteps steps, StepOrigin origin) {
        if (steps.theta() != 2) {
            return "not checked (the sufficient condition is for theta = 2)";
        }
        String violation = steps.violation(origin.smoothness());
        return violation == null ? "holds" : "violated: " + violation;
    }

    /**
     * The feature norm bound cannot change on resume: the saved iterates were made with the steps of one bound (or of
     * the agents' own smoothness, "" here), and the statement says which the whole run followed.
     */
    @Override
    public java.util.Map<String, String> settingsFixedOnResume() {
        return java.util.Map.of(org.dpdl4j.runtime.options.RunOptions.FEATURE_NORM_BOUND.name(), "");
    }

    @Override
    public String mechanismChangeSince(org.dpdl4j.privacy.ledger.PrivacyLedger saved) {
        return org.dpdl4j.privacy.ledger.FormerZcdpRounds.changeSince(saved, protocol());
    }

    /**
     * {@code ||iterate - reference|| / ||reference||}: the convergence of what the algorithm computes, as the papers
     * measure it (for the private gossip baselines the agents' exact iterates, which are not what they release).
     */
    public double relativeError(INDArray reference) {
        return iterate().sub(reference).norm2Number().doubleValue() / reference.norm2Number().doubleValue();
    }

    /** What {@link #relativeError} measures: by default the released {@link #output()}. */
    protected INDArray iterate() {
        return output();
    }

    /**
     * The agents' local models are their internal iterates, which they never publish as such: a statement does not cover
     * them (the released model, {@link #output()}, is a post-processing of what was published).
     */
    @Override
    public boolean partyModelsReleased() {
        return false;
    }

    public CompositeProblem problem() {
        return problem;
    }

    public LinearModel linearModel() {
        return model;
    }

    @Override
    public long plannedSteps() {
        return planned;
    }

    @Override
    public String stepUnit() {
        return "iteration";
    }

    @Override
    public INDArray parameters() {
        return model.flat(output());
    }

    @Override
    public MultiLayerNetwork model() {
        return model.withMatrix(output());
    }

    @Override
    protected String divergenceHint() {
        return "lower the step sizes (--step-scale) or check the data's scale";
    }
}
