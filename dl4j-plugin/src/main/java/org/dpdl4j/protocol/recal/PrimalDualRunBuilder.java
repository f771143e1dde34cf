package org.dpdl4j.protocol.recal;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivateRunBuilder;

/**
 * Assembles the {@link PrimalDualRunSpec} of a run of any algorithm of the DP-RECAL comparison from Java, then builds
 * or prices it through the spec, as the protocol's settings do: the agents' data (given, or split from a training
 * set), the composite problem (the model's loss, the penalty), the graph, the step sizes (spec 5.2's safe defaults
 * from every agent's smoothness, times a scale), and for the private algorithms the clipping bound, the noise
 * (calibrated per agent from a target (epsilon, delta) and its number of publications, or a given noise multiplier)
 * and the ledger. DP-RECAL's baton path is drawn when the run is set up, before it starts, so that the activation counts are known:
 * each agent is calibrated for its own count, or for a planned LCI (then an agent activated more often stops
 * publishing when its budget is spent).
 */
public final class PrimalDualRunBuilder extends PrivateRunBuilder<PrimalDualRunBuilder> {
    private final PrimalDualAlgorithm algorithm;
    private MultiLayerNetwork template;
    private List<NodeData> data;
    private TrainingSet splitSet;
    private PartySplit split;
    private Integer agents;
    private Graph graph;
    private long iterations;
    private Penalty penalty = Penalty.none();
    private double theta = 2;
    private double mu = 1;
    private double stepScale = 1;
    private double alpha = Double.NaN;
    private double featureNormBound = Double.NaN;
    private double clip = Double.POSITIVE_INFINITY;
    private double zeta = 1;
    private double noiseMultiplier = Double.NaN;
    private long plannedLci;
    private boolean paperAccounting;
    private RunSettings settings = RunSettings.empty();
    private CompositeProblem problem;

    PrimalDualRunBuilder(PrimalDualAlgorithm algorithm) {
        this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
    }

    /** A builder for {@code algorithm}. */
    public static PrimalDualRunBuilder of(PrimalDualAlgorithm algorithm) {
        return new PrimalDualRunBuilder(algorithm);
    }

    /** The linear model: least squares or softmax, one output layer (its parameters are not used as a start: X starts at 0). */
    public PrimalDualRunBuilder model(MultiLayerNetwork value) {
        this.template = Objects.requireNonNull(value, "model");
        return this;
    }

    /** The agents' local data sets (features [m_i, p], targets [m_i, c]). */
    public PrimalDualRunBuilder agents(List<NodeData> value) {
        this.data = List.copyOf(value);
        return this;
    }

    /** Splits a training set over {@code count} agents with the run's seed. */
    public PrimalDualRunBuilder split(TrainingSet set, PartySplit how, int count) {
        this.splitSet = Objects.requireNonNull(set, "training set");
        this.split = Objects.requireNonNull(how, "split");
        this.agents = count;
        return this;
    }

    /** A problem built already (its agents' data and penalty); the model must fit it. Saves rebuilding it per run. */
    public PrimalDualRunBuilder problem(CompositeProblem value) {
        this.problem = Objects.requireNonNull(value, "problem");
        return this;
    }

    public PrimalDualRunBuilder graph(Graph value) {
        this.graph = Objects.requireNonNull(value, "graph");
        return this;
    }

    /** K, the iterations (baton passes for the relay algorithms, synchronous rounds for the others). */
    public PrimalDualRunBuilder iterations(long value) {
        this.iterations = value;
        return this;
    }

    public PrimalDualRunBuilder penalty(Penalty value) {
        this.penalty = Objects.requireNonNull(value, "penalty");
        return this;
    }

    /** theta >= 0 and mu in [0, 1] of the AFBS iteration (default 2 and 1). */
    public PrimalDualRunBuilder relaxation(double thetaValue, double muValue) {
        this.theta = thetaValue;
        this.mu = muValue;
        return this;
    }

    /** Multiplies the default primal steps (tau_i and gamma; alpha of the baselines); default 1. */
    public PrimalDualRunBuilder stepScale(double value) {
        this.stepScale = value;
        return this;
    }

    /** The baselines' step size alpha instead of their default. */
    public PrimalDualRunBuilder alpha(double value) {
        this.alpha = value;
        return this;
    }

    /**
     * A public bound B on every record's feature norm: the default steps (and with them the sensitivities and noise)
     * follow it and the agents' record counts ({@link CompositeProblem#publicSmoothness}) instead of each agent's
     * smoothness computed from its data, so that they carry nothing about the records (a DP-RECAL least-squares run
     * priced with the drift of its agents' state, with secure noise, is then a guarantee). The steps are smaller (scale
     * them with {@link #stepScale}); a record beyond B is refused.
     */
    public PrimalDualRunBuilder featureNormBound(double value) {
        this.featureNormBound = value;
        return this;
    }

    /** G_rec, the clip of every record's gradient (required with privacy). */
    public PrimalDualRunBuilder clip(double value) {
        this.clip = value;
        return this;
    }

    /** The noise attenuation zeta in (0, 1]: the m-th publication's std is sigma zeta^((m-1)/2). Default 1. */
    public PrimalDualRunBuilder zeta(double value) {
        this.zeta = value;
        return this;
    }

    /** sigma_i = z Delta_i instead of a target. */
    public PrimalDualRunBuilder noiseMultiplier(double z) {
        this.noiseMultiplier = z;
        return this;
    }

    /**
     * DP-RECAL: calibrate every agent for this many publications instead of its count on the drawn path; an agent
     * whose count is larger stops publishing when its budget is spent.
     */
    public PrimalDualRunBuilder plannedLci(long value) {
        this.plannedLci = value;
        return this;
    }

    /**
     * DP-RECAL: price every publication as the paper does, with the agent's internal state conditioned on: the paper's
     * figure, which the run marks not a guarantee. Without it, least squares with {@code tau_i <= 1/L_i} (a step scale
     * of at most 2) is priced with the drift of that state ({@link PublicationSensitivity#STATE_DRIFT}), a proven bound
     * when the steps follow a public bound ({@link #featureNormBound}; with steps from the agents' own data the run is
     * marked, the steps being unpriced), and other runs are priced the paper's way and marked.
     */
    public PrimalDualRunBuilder paperAccounting(boolean value) {
        this.paperAccounting = value;
        return this;
    }

    public PrimalDualRunBuilder settings(RunSettings value) {
        this.settings = Objects.requireNonNull(value, "settings");
        return this;
    }

    /**
     * The description of the run these setters make: what {@link #build()} and {@link #plannedLedger} go through, as
     * the protocol's settings do.
     */
    public PrimalDualRunSpec spec() {
        require(data == null || split == null, "give the agents' data either as agents(list) or as split(set, how, count)");
        PartySource source = data != null ? PartySource.given(data) : split != null ? PartySource.split(splitSet, split) : null;
        return new PrimalDualRunSpec(algorithm, graph, source, data != null ? null : agents, problem, iterations, penalty, theta,
                mu, stepScale, alpha, featureNormBound, clip, zeta, noiseMultiplier, plannedLci, paperAccounting, privacySetup());
    }

    /**
     * Builds the run ({@link PrimalDualRunSpec#create}).
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public CompositeRun build() {
        return spec().create(template, settings);
    }

    /**
     * The ledger {@link #build()}'s run will hold after all its iterations, for a model of the given configuration
     * ({@link PrimalDualRunSpec#plannedLedger}).
     *
     * @param model the configuration of the network {@link #model} would be given
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger(MultiLayerConfiguration model) {
        return spec().plannedLedger(model);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
