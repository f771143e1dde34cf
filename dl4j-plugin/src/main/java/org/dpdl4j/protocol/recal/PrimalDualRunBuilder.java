package org.dpdl4j.protocol.recal;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.SymmetricEigendecomposition;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.PrivateRunBuilder;

/**
 * Sets up a run of any algorithm of the DP-RECAL comparison: the agents' data (given, or split from a training
 * set), the composite problem (the model's loss, the penalty), the graph, the step sizes (spec 5.2's safe defaults
 * from every agent's smoothness, times a scale), and for the private algorithms the clipping bound, the noise
 * (calibrated per agent from a target (epsilon, delta) and its number of publications, or a given noise multiplier)
 * and the ledger. DP-RECAL's baton path is drawn here, before the run, so that the activation counts are known:
 * each agent is calibrated for its own count, or for a planned LCI (then an agent activated more often stops
 * publishing when its budget is spent).
 */
public final class PrimalDualRunBuilder extends PrivateRunBuilder<PrimalDualRunBuilder> {
    private final PrimalDualAlgorithm algorithm;
    private MultiLayerNetwork template;
    private List<NodeData> data;
    private TrainingSet splitSet;
    private PartySplit split;
    private int agents;
    private Graph graph;
    private long iterations;
    private Penalty penalty = Penalty.none();
    private double theta = 2;
    private double mu = 1;
    private double stepScale = 1;
    private double alpha = Double.NaN;
    private double clip = Double.POSITIVE_INFINITY;
    private double zeta = 1;
    private double noiseMultiplier = Double.NaN;
    private long plannedLci;
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

    public PrimalDualRunBuilder settings(RunSettings value) {
        this.settings = Objects.requireNonNull(value, "settings");
        return this;
    }

    /**
     * Builds the run.
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public CompositeRun build() {
        require(template != null, "give the linear model (model(network)): one least-squares or softmax output layer");
        requireRun();
        LinearModel linear = LinearModel.of(template);
        String report = null;
        CompositeProblem p = problem;
        if (p == null) {
            List<NodeData> local = data;
            requireAgents();
            DataShape shape = local != null ? DataShape.of(local) : DataShape.of(splitSet, split, agents, seed);
            MemoryCheck.require(new PrimalDualMemory(algorithm, ModelFootprint.of(template.getLayerWiseConfigurations()), shape,
                    local != null ? local.size() : agents, iterations).estimate());
            if (local == null) {
                TrainingSet.Parties parts = splitSet.split(split, agents, seed);
                report = parts.report();
                local = parts.data();
            }
            p = CompositeProblem.of(local, linear.loss(), penalty, linear.bias());
        }
        NoiseStreams streams = noise.streams(p.agentCount(), seed);
        Plan plan = plan(p, linear.layout(), () -> streams.sampling(0, 0));
        RunLedger ledger = plan.privacy() == null ? null : ledger(NeighbouringRelation.REPLACE_ONE, noise.isSecure());
        MixingMatrix mixing = MixingMatrix.metropolisHastings(graph);
        boolean isPrivate = algorithm.isPrivate();
        CompositeRun run = switch (algorithm) {
            case RECAL -> new RelayRecal(algorithm.cliName(), settings, null, p, linear, plan.steps(), plan.path(),
                    Double.POSITIVE_INFINITY, null, streams);
            case DP_RECAL -> new RelayRecal(algorithm.cliName(), settings, ledger, p, linear, plan.steps(), plan.path(), clip,
                    plan.privacy(), streams);
            case RECAL_SYNC -> new SynchronousAfbs(settings, p, linear, plan.steps(), iterations);
            case PG_EXTRA, DP_PG_EXTRA -> new PgExtra(algorithm.cliName(), settings, ledger, p, linear, iterations, mixing, plan.step(),
                    isPrivate ? clip : Double.POSITIVE_INFINITY, plan.privacy(), streams);
            case NIDS, DP_NIDS -> new Nids(algorithm.cliName(), settings, ledger, p, linear, iterations, mixing, plan.step(),
                    isPrivate ? clip : Double.POSITIVE_INFINITY, plan.privacy(), streams);
        };
        run.recordPartition(report);
        return run;
    }

    /**
     * The ledger {@link #build()}'s run will hold after all its iterations, with the relation it is priced under, for a
     * model of the given configuration: no network is built and no noise is drawn. The agents' data is split and read
     * as the run's set-up reads it, for the smoothness constants the step sizes (and with them the sensitivities) come
     * from. The settings are checked as {@link #build()} checks them.
     *
     * <p>RECAL's baton charges the agents it visits, and its path is drawn when the run is built: from the seed alone
     * with seeded randomness (drawn here exactly so), but from secret randomness with secure noise, which nothing can
     * tell before. Then, and for the algorithms without noise, the plan is empty.
     *
     * @param model the configuration of the network {@link #model} would be given
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger(MultiLayerConfiguration model) {
        requireRun();
        LinearModel.Layout layout = LinearModel.Layout.of(model);
        CompositeProblem p = problem;
        if (p == null) {
            requireAgents();
            p = CompositeProblem.of(data != null ? data : splitSet.split(split, agents, seed).data(), layout.loss(), penalty,
                    layout.bias());
        }
        int n = p.agentCount();
        boolean secretPath = algorithm.isRelay() && noise.isSecure();
        Plan plan = plan(p, layout, secretPath ? null : () -> noise.streams(n, seed).sampling(0, 0));
        if (plan.privacy() == null) {
            return Optional.empty();
        }
        PrivacyLedger planned = algorithm.isRelay()
                ? plan.privacy().plannedRelay(plan.path(), ledger(NeighbouringRelation.REPLACE_ONE, noise.isSecure()))
                : plan.privacy().plannedSynchronous(plan.publications()[0], noise.isSecure());
        return Optional.of(new PlannedLedger(planned, NeighbouringRelation.REPLACE_ONE));
    }

    /** What every run needs, whatever its model and data. */
    private void requireRun() {
        require(graph != null, "give the communication graph (graph(g))");
        require(iterations >= 1 && iterations <= Integer.MAX_VALUE, "give the number of iterations, from 1 to 2^31 - 1");
        require(stepScale > 0 && Double.isFinite(stepScale), "the step scale must be positive and finite, got " + stepScale);
        require(graph.isConnected(), "the graph must be connected: a primal-dual protocol reaches consensus only over a connected graph");
    }

    private void requireAgents() {
        require((data == null) != (split == null), "give the agents' data either as agents(list) or as split(set, how, count)");
        require(data != null || agents >= 1, "give the number of agents, at least 1");
    }

    /**
     * The steps, the baton's path, every agent's publications and noise on problem {@code p}: what build and pricing
     * share.
     *
     * @param pathRandom where the baton's path is drawn from; null when it is secret (pricing with secure noise), and
     *                   then a relay's plan has neither path nor privacy
     */
    private Plan plan(CompositeProblem p, LinearModel.Layout linear, java.util.function.Supplier<RandomGenerator> pathRandom) {
        require(p.agentCount() == graph.vertexCount(), "the graph has " + graph.vertexCount() + " agents but the data is split over "
                + p.agentCount());
        require(p.agent(0).loss() == linear.loss(), "the problem's loss is " + p.agent(0).loss().cliName() + " but the model's "
                + linear.loss().cliName());
        boolean isPrivate = algorithm.isPrivate();
        if (isPrivate) {
            require(clip > 0 && Double.isFinite(clip), "a private algorithm needs the per-record gradient bound G_rec (--clip):"
                    + " every record's gradient is clipped to it, which bounds the sensitivity");
            require(Double.isNaN(targetEpsilon) != Double.isNaN(noiseMultiplier), "give exactly one of a target epsilon"
                    + " (--epsilon; each agent's sigma is calibrated to it) and a noise multiplier (--noise-multiplier Z; sigma = Z x"
                    + " the sensitivity)");
            DecayingNoisePrivacy.requireZeta(zeta);
        } else {
            require(Double.isNaN(targetEpsilon) && Double.isNaN(noiseMultiplier), algorithm.cliName() + " adds no noise; use dp-"
                    + algorithm.cliName().replace("recal-sync", "recal") + " for a private run");
        }
        RecalSteps steps = RecalSteps.defaults(p.smoothness(), theta, mu);
        steps = new RecalSteps(scale(steps.tau(), stepScale), steps.beta(), steps.gamma() * stepScale, theta, mu);
        int n = p.agentCount();
        long[] publications = new long[n];
        int[] path = null;
        double step = Double.NaN;
        require(plannedLci == 0 || algorithm == PrimalDualAlgorithm.DP_RECAL, "a planned LCI applies to dp-recal only");
        require(Double.isNaN(alpha) || !(algorithm.isRelay() || algorithm == PrimalDualAlgorithm.RECAL_SYNC),
                "alpha is the step size of PG-EXTRA and NIDS; RECAL's steps come from the agents' smoothness (use the step scale)");
        switch (algorithm) {
            case RECAL, DP_RECAL -> {
                if (pathRandom != null) {
                    path = BatonWalk.draw(graph, iterations, pathRandom.get());
                    publications = BatonWalk.activations(n, path);
                    if (plannedLci > 0) {
                        java.util.Arrays.fill(publications, plannedLci);
                    }
                }
            }
            case PG_EXTRA, DP_PG_EXTRA -> {
                step = Double.isNaN(alpha) ? stepScale * pgExtraStep(graph, p.smoothness()) : alpha;
                java.util.Arrays.fill(publications, iterations);
            }
            case NIDS, DP_NIDS -> {
                step = Double.isNaN(alpha) ? stepScale / max(p.smoothness()) : alpha;
                java.util.Arrays.fill(publications, Nids.publicationsFor(iterations));
            }
            case RECAL_SYNC -> {
            }
        }
        DecayingNoisePrivacy privacy = null;
        if (isPrivate && (path != null || !algorithm.isRelay())) {
            double[] sensitivity = new double[n];
            double[] sigma = new double[n];
            for (int i = 0; i < n; i++) {
                double coefficient = algorithm.isRelay() ? steps.gradientCoefficient(i) : step;
                sensitivity[i] = coefficient * 2 * clip;
                long count = Math.max(1, publications[i]);
                sigma[i] = !Double.isNaN(targetEpsilon)
                        ? DecayingNoisePrivacy.calibrate(sensitivity[i], zeta, count, targetEpsilon, delta, accountants)
                        : noiseMultiplier * sensitivity[i];
            }
            privacy = new DecayingNoisePrivacy(sensitivity, sigma, zeta);
        }
        // What the run's constructor checks, in its order, so that pricing refuses what building refuses.
        linear.requireFits(p);
        if (!Double.isNaN(step)) {
            GossipRun.requireStep(step);
        }
        if (isPrivate && algorithm.isRelay()) {
            RelayRecal.requireNoisyBaton(steps);
        }
        return new Plan(steps, path, step, publications, privacy);
    }

    /**
     * A run's settings resolved on its problem.
     *
     * @param path         the baton's path (relay algorithms), else null
     * @param step         alpha of the synchronous baselines, else NaN
     * @param publications every agent's planned publications
     * @param privacy      the accounting of a private run, else null
     */
    private record Plan(RecalSteps steps, int[] path, double step, long[] publications, DecayingNoisePrivacy privacy) {
    }

    /** PG-EXTRA's default step: {@code lambda_min((I + W)/2) / max_i L_i}, half its convergence bound. */
    static double pgExtraStep(Graph graph, double[] smoothness) {
        double[] eig = SymmetricEigendecomposition.of(MixingMatrix.metropolisHastings(graph).toArray()).eigenvalues();
        double smallest = java.util.Arrays.stream(eig).min().orElseThrow();
        return (1 + smallest) / 2 / max(smoothness);
    }

    private static double max(double[] v) {
        return java.util.Arrays.stream(v).max().orElseThrow();
    }

    private static double[] scale(double[] v, double factor) {
        double[] out = v.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] *= factor;
        }
        return out;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
