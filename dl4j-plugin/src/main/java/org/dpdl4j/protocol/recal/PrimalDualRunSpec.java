package org.dpdl4j.protocol.recal;

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
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivacySetup;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The one description of a primal-dual run (RECAL and DP-RECAL, the synchronous AFBS, PG-EXTRA, NIDS and their private
 * variants) apart from its linear model. {@link PrimalDualRunBuilder} assembles it from Java,
 * {@link PrimalDualProtocol#config} from a command line's settings; {@link #plannedLedger} prices it and
 * {@link #create} builds it, both through {@link #plan}: the steps from the agents' smoothness, the baton's path, every
 * agent's publications and its calibrated noise.
 *
 * @param algorithm       which algorithm
 * @param graph           the communication graph
 * @param data            where the agents' data comes from, null when a built problem is given
 * @param agents          the number of agents a training set is split over, null when the data is given
 * @param problem         a problem built already (its agents' data and penalty), or null to build it from the data
 * @param iterations      K, the iterations (baton passes for the relay algorithms, synchronous rounds for the others)
 * @param penalty         the penalty of the composite problem
 * @param theta           theta of the AFBS iteration
 * @param mu              mu of the AFBS iteration
 * @param stepScale       multiplies the default primal steps
 * @param alpha           the baselines' step size instead of their default, NaN for the default
 * @param featureNormBound a public bound B on every record's feature norm that the default steps follow
 *                        ({@link CompositeProblem#publicSmoothness}), NaN for the agents' own smoothness (the papers')
 * @param clip            G_rec, the clip of every record's gradient
 * @param zeta            the noise attenuation in (0, 1]
 * @param noiseMultiplier sigma_i = z Delta_i instead of a target, NaN when calibrated
 * @param plannedLci      DP-RECAL: publications every agent is calibrated for, 0 for its count on the drawn path
 * @param paperAccounting DP-RECAL: price every publication as the paper does, the agent's state conditioned on (not a
 *                        proven bound), even where the proven accounting of the state's drift applies
 *                        ({@link PublicationSensitivity})
 * @param privacy         the shared privacy set-up: target, delta, budget, noise kind, seed, accountant
 */
public record PrimalDualRunSpec(PrimalDualAlgorithm algorithm, Graph graph, PartySource data, Integer agents,
                                CompositeProblem problem, long iterations, Penalty penalty, double theta, double mu,
                                double stepScale, double alpha, double featureNormBound, double clip, double zeta,
                                double noiseMultiplier, long plannedLci, boolean paperAccounting, PrivacySetup privacy) {
    public PrimalDualRunSpec {
        require(algorithm != null && penalty != null && privacy != null, "the algorithm, the penalty and the privacy set-up");
        if (!Double.isNaN(featureNormBound)) {
            org.dpdl4j.runtime.FeatureNormBound.require(featureNormBound);
        }
        require(Double.isNaN(featureNormBound) || Double.isNaN(alpha), "--alpha gives the step, which then follows no"
                + " smoothness: drop --feature-norm-bound, or drop --alpha to take the step from the bound");
    }

    /**
     * Builds the run.
     *
     * @param template the linear model: one least-squares or softmax output layer
     * @param recorded the settings recorded with the run (in its checkpoint), null for none
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public CompositeRun create(MultiLayerNetwork template, RunSettings recorded) {
        require(template != null, "give the linear model (model(network)): one least-squares or softmax output layer");
        RunSettings settings = recorded != null ? recorded : RunSettings.empty();
        if (!Double.isNaN(featureNormBound) && !settings.has(org.dpdl4j.runtime.options.RunOptions.FEATURE_NORM_BOUND)) {
            // recorded so that a library run's resume sees the bound its steps followed, as a command line's does
            settings = settings.with(org.dpdl4j.runtime.options.RunOptions.FEATURE_NORM_BOUND, featureNormBound);
        }
        if (paperAccounting && !settings.has(PrimalDualOptions.PAPER_ACCOUNTING)) {
            settings = settings.with(PrimalDualOptions.PAPER_ACCOUNTING, true);
        }
        require(settings.get(PrimalDualOptions.PAPER_ACCOUNTING, false) == paperAccounting, "the recorded settings say"
                + " --paper-accounting " + settings.get(PrimalDualOptions.PAPER_ACCOUNTING, false) + " but the run is built with"
                + " paperAccounting(" + paperAccounting + "): build it as it was recorded");
        long seed = privacy.seed();
        requireRun();
        LinearModel linear = LinearModel.of(template);
        String report = null;
        CompositeProblem p = problem;
        if (p == null) {
            requireAgents();
            int count = agentCount();
            MemoryCheck.require(new PrimalDualMemory(algorithm, ModelFootprint.of(template.getLayerWiseConfigurations()),
                    data.shape(count, seed), count, iterations).estimate());
            PartySource.Local local = data.localUnchecked(count, seed);
            report = local.report();
            p = CompositeProblem.of(local.data(), linear.loss(), penalty, linear.bias());
        }
        NoiseStreams streams = privacy.noise().streams(p.agentCount(), seed);
        Plan plan = plan(p, linear.layout(), () -> streams.sampling(0, 0));
        RunLedger ledger = plan.privacy() == null ? null : privacy.ledger(NeighbouringRelation.REPLACE_ONE, privacy.noise().isSecure());
        if (ledger != null && plan.notAGuarantee() != null) {
            ledger.markNotAGuarantee(plan.notAGuarantee());
        }
        MixingMatrix mixing = MixingMatrix.metropolisHastings(graph);
        boolean isPrivate = algorithm.isPrivate();
        CompositeRun run = switch (algorithm) {
            case RECAL -> new RelayRecal(algorithm.cliName(), settings, null, p, linear, plan.steps(), plan.path(),
                    Double.POSITIVE_INFINITY, null, streams, plan.origin());
            case DP_RECAL -> new RelayRecal(algorithm.cliName(), settings, ledger, p, linear, plan.steps(), plan.path(), clip,
                    plan.privacy(), streams, plan.origin());
            case RECAL_SYNC -> new SynchronousAfbs(settings, p, linear, plan.steps(), iterations, plan.origin());
            case PG_EXTRA, DP_PG_EXTRA -> new PgExtra(algorithm.cliName(), settings, ledger, p, linear, iterations, mixing, plan.step(),
                    isPrivate ? clip : Double.POSITIVE_INFINITY, plan.privacy(), streams, plan.origin());
            case NIDS, DP_NIDS -> new Nids(algorithm.cliName(), settings, ledger, p, linear, iterations, mixing, plan.step(),
                    isPrivate ? clip : Double.POSITIVE_INFINITY, plan.privacy(), streams, plan.origin());
        };
        run.recordPartition(report);
        return run;
    }

    /**
     * The ledger {@link #create}'s run will hold after all its iterations, with the relation it is priced under, for a
     * model of the given configuration: no network is built and no noise is drawn. The agents' data is split and read
     * as the run's set-up reads it, for the smoothness constants the step sizes (and with them the sensitivities) come
     * from (or, with a feature norm bound, for the record counts and the check that the records respect it). The
     * settings are checked as {@link #create} checks them.
     *
     * <p>RECAL's baton charges the agents it visits, and its path is drawn when the run is built: from the seed alone
     * with seeded randomness (drawn here exactly so), but from secret randomness with secure noise, which nothing can
     * tell before. Then, and for the algorithms without noise, the plan is empty.
     *
     * @param model the configuration of the network {@link #create} would be given
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger(MultiLayerConfiguration model) {
        requireRun();
        long seed = privacy.seed();
        NoiseKind noise = privacy.noise();
        LinearModel.Layout layout = LinearModel.Layout.of(model);
        CompositeProblem p = problem;
        if (p == null) {
            requireAgents();
            p = CompositeProblem.of(data.localUnchecked(agentCount(), seed).data(),
                    layout.loss(), penalty, layout.bias());
        }
        int n = p.agentCount();
        boolean secretPath = algorithm.isRelay() && noise.isSecure();
        Plan plan = plan(p, layout, secretPath ? null : () -> noise.streams(n, seed).sampling(0, 0));
        if (plan.privacy() == null) {
            return Optional.empty();
        }
        PrivacyLedger planned = algorithm.isRelay()
                ? plan.privacy().plannedRelay(plan.path(), privacy.ledger(NeighbouringRelation.REPLACE_ONE, noise.isSecure()))
                : plan.privacy().plannedSynchronous(plan.publications()[0], noise.isSecure());
        return Optional.of(new PlannedLedger(planned, NeighbouringRelation.REPLACE_ONE, plan.notAGuarantee()));
    }

    /**
     * Why a DP-RECAL run priced with the drift of its agents' state is still not a guarantee when its steps follow the
     * agents' own data: tau_i, beta_i and gamma come from each agent's smoothness, which the publications depend on
     * (beta_i scales their public terms) and the ledger does not price, and the L_i the step condition is checked
     * against is a power-iteration estimate.
     */
    static final String DATA_STEPS = "dp-recal's publications are priced with the drift of each agent's state, but its step"
            + " sizes (tau_i, beta_i, gamma) follow each agent's smoothness L_i computed from its own data, as in the paper:"
            + " the publications depend on them and the ledger does not price them, and the step condition tau_i <= 1/L_i the"
            + " proof needs is checked against a power-iteration estimate of L_i. --feature-norm-bound B (featureNormBound(B))"
            + " takes the steps from a public bound instead, and then the epsilon is a proven bound";

    /** What every run needs, whatever its model and data. */
    private void requireRun() {
        require(graph != null, "give the communication graph (graph(g))");
        require(iterations >= 1 && iterations <= Integer.MAX_VALUE, "give the number of iterations, from 1 to 2^31 - 1");
        require(stepScale > 0 && Double.isFinite(stepScale), "the step scale must be positive and finite, got " + stepScale);
        require(graph.isConnected(), "the graph must be connected: a primal-dual protocol reaches consensus only over a connected graph");
    }

    private void requireAgents() {
        require(data != null, "give the agents' data either as agents(list) or as split(set, how, count)");
        require(data.count().isPresent() || agents != null && agents >= 1, "give the number of agents, at least 1");
    }

    private int agentCount() {
        return data.count().orElseGet(() -> agents);
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
            require(privacy.byTarget() == Double.isNaN(noiseMultiplier), "give exactly one of a target epsilon"
                    + " (--epsilon; each agent's sigma is calibrated to it) and a noise multiplier (--noise-multiplier Z; sigma = Z x"
                    + " the sensitivity)");
            DecayingNoisePrivacy.requireZeta(zeta);
        } else {
            require(!privacy.byTarget() && Double.isNaN(noiseMultiplier), algorithm.cliName() + " adds no noise; use dp-"
                    + algorithm.cliName().replace("recal-sync", "recal") + " for a private run");
        }
        boolean publicBound = !Double.isNaN(featureNormBound);
        double[] smoothness = publicBound ? p.publicSmoothness(featureNormBound) : p.smoothness();
        RecalSteps steps = RecalSteps.defaults(smoothness, theta, mu);
        steps = new RecalSteps(scale(steps.tau(), stepScale), steps.beta(), steps.gamma() * stepScale, theta, mu);
        int n = p.agentCount();
        long[] publications = new long[n];
        int[] path = null;
        double step = Double.NaN;
        require(plannedLci == 0 || algorithm == PrimalDualAlgorithm.DP_RECAL, "a planned LCI applies to dp-recal only");
        require(!paperAccounting || algorithm == PrimalDualAlgorithm.DP_RECAL, "--paper-accounting (paperAccounting(true))"
                + " applies to dp-recal only, not to " + algorithm.cliName());
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
                step = Double.isNaN(alpha) ? stepScale * pgExtraStep(graph, smoothness) : alpha;
                java.util.Arrays.fill(publications, iterations);
            }
            case NIDS, DP_NIDS -> {
                step = Double.isNaN(alpha) ? stepScale / max(smoothness) : alpha;
                java.util.Arrays.fill(publications, Nids.publicationsFor(iterations));
            }
            case RECAL_SYNC -> {
            }
        }
        DecayingNoisePrivacy analysis = null;
        String unproven = null;
        PublicationSensitivity growth = PublicationSensitivity.CONDITIONED_ON_STATE;
        if (algorithm == PrimalDualAlgorithm.DP_RECAL) {
            String why = paperAccounting ? "the paper's accounting was asked for (--paper-accounting)"
                    : PublicationSensitivity.whyNotProven(linear.loss(), steps.tau(), smoothness);
            if (why == null) {
                growth = PublicationSensitivity.STATE_DRIFT;
                if (!publicBound) {
                    unproven = DATA_STEPS;
                }
            } else {
                unproven = algorithm.notAGuarantee() + "; here " + why;
            }
        } else if (isPrivate) {
            unproven = algorithm.notAGuarantee();
        }
        if (isPrivate && (path != null || !algorithm.isRelay())) {
            double[] sensitivity = new double[n];
            double[] sigma = new double[n];
            for (int i = 0; i < n; i++) {
                double coefficient = algorithm.isRelay() ? steps.gradientCoefficient(i) : step;
                sensitivity[i] = coefficient * 2 * clip;
                long count = Math.max(1, publications[i]);
                sigma[i] = privacy.byTarget()
                        ? DecayingNoisePrivacy.calibrate(sensitivity[i], zeta, count, privacy.targetEpsilon(), privacy.delta(),
                        privacy.accountants(), growth)
                        : noiseMultiplier * sensitivity[i];
            }
            analysis = new DecayingNoisePrivacy(sensitivity, sigma, zeta, growth);
        }
        // What the run's constructor checks, in its order, so that pricing refuses what building refuses.
        linear.requireFits(p);
        if (!Double.isNaN(step)) {
            GossipRun.requireStep(step);
        }
        if (isPrivate && algorithm.isRelay()) {
            RelayRecal.requireNoisyBaton(steps);
        }
        StepOrigin origin = publicBound ? StepOrigin.publicBound(featureNormBound, smoothness)
                : Double.isNaN(alpha) ? StepOrigin.agentsData(smoothness) : StepOrigin.givenStep(alpha, smoothness);
        return new Plan(steps, path, step, publications, analysis, origin, unproven);
    }

    /**
     * A run's settings resolved on its problem.
     *
     * @param path         the baton's path (relay algorithms), else null
     * @param step         alpha of the synchronous baselines, else NaN
     * @param publications every agent's planned publications
     * @param privacy      the accounting of a private run, else null
     * @param origin       where the steps come from, for the statement and the reported step condition
     * @param notAGuarantee why a private run's ledger is not a proven bound, null when it is (or the run is not private)
     */
    private record Plan(RecalSteps steps, int[] path, double step, long[] publications, DecayingNoisePrivacy privacy,
                        StepOrigin origin, String notAGuarantee) {
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
