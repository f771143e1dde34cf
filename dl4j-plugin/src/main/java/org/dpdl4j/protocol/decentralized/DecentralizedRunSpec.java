package org.dpdl4j.protocol.decentralized;

import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivacySetup;
import org.dpdl4j.runtime.options.PartyOptions;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The one description of a decentralized run (D-SGD, Decor, LDP, CDP) apart from the network its nodes start from:
 * what the user decided, with the library's defaults marked as absent. {@link DecentralizedRunBuilder} assembles it
 * from Java, {@link DecentralizedProtocol#config} from a command line's settings; both then go through
 * {@link #plannedLedger} (pricing, nothing built) and {@link #create} (the run), which share {@link #plan}: the checks,
 * the calibration of the noise and the analysis of one round.
 *
 * @param algorithm     D-SGD, Decor, LDP or CDP
 * @param graph         the communication graph; null for CDP given only its number of nodes
 * @param nodeCount     the number of nodes, null when the graph (or the data) says it
 * @param mixing        the gossip matrix, null for the algorithm's default on the graph
 * @param data          where the nodes' local datasets come from
 * @param unit          who is protected, null for D-SGD
 * @param objective     the mean or the sum of the batch's losses
 * @param clip          C, NaN for D-SGD
 * @param batchSize     examples per node and round, null with full-batch sampling
 * @param sampling      the batch sampling, null for the default of the unit (Poisson for examples, fixed-size for users)
 * @param learningRate  the step-size schedule
 * @param weightDecay   lambda
 * @param rounds        T, the rounds the noise is calibrated for
 * @param sigmaCdp      the given private noise, NaN when calibrated to the target
 * @param sigmaCor      the given pairwise noise (Decor), NaN when calibrated
 * @param adversary     against whom Decor's guarantee holds
 * @param noisePair     which calibrated Decor pair
 * @param compatibility the Decor reference code's deviations (figures only)
 * @param privacy       the shared privacy set-up: target, delta, budget, noise kind, seed, accountant
 * @param planted       audit contributions added to the clipped gradients, null in every ordinary run
 */
public record DecentralizedRunSpec(DecentralizedAlgorithm algorithm, Graph graph, Integer nodeCount, MixingMatrix mixing,
                                   PartySource data, ProtectedUnit unit, LocalObjective objective, double clip,
                                   Integer batchSize, SamplingScheme sampling, LearningRate learningRate, double weightDecay,
                                   long rounds, double sigmaCdp, double sigmaCor, Adversary adversary,
                                   NoisePairChoice noisePair, DecorCompatibility compatibility, PrivacySetup privacy,
                                   PlantedContributions planted) {
    public DecentralizedRunSpec {
        require(algorithm != null, "choose the algorithm (algorithm(DecentralizedAlgorithm.DECOR), ...)");
        Objects.requireNonNull(objective, "objective");
        Objects.requireNonNull(adversary, "adversary");
        Objects.requireNonNull(noisePair, "noise pair");
        Objects.requireNonNull(compatibility, "compatibility");
        Objects.requireNonNull(privacy, "privacy set-up");
        require(planted == null || algorithm.isPrivate(), "planted contributions audit a private algorithm; "
                + algorithm.cliName() + " adds no noise");
    }

    /**
     * What {@link #create}'s run will hold in its ledger after its planned rounds, with the relation it is priced
     * under, from the description and the sizes of the nodes' data: no model is needed and no noise stream is opened
     * (a split is drawn for its sizes only). Checked as {@link #create} checks it.
     *
     * @param secureStreams whether the run's noise streams are secure (as its ledger will say)
     * @return empty for D-SGD, which has no guarantee
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger(boolean secureStreams) {
        requireRunSettings();
        Graph g = connectedGraph();
        return plan(g, data.smallest(g.vertexCount(), privacy.seed())).plannedLedger(secureStreams);
    }

    /**
     * What a target calibrates on this graph and these nodes' data: the chosen Decor pair and every feasible one (no
     * model is needed, no noise stream is opened).
     *
     * @return null with given noise or for D-SGD
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public DecentralizedCalibration.Result calibration() {
        requireRunSettings();
        Graph g = connectedGraph();
        return plan(g, data.smallest(g.vertexCount(), privacy.seed())).calibration();
    }

    /**
     * Sets the run up.
     *
     * @param template the network every node starts from (its parameters are not changed)
     * @param streams  noise streams to use instead of those of the noise kind (e.g. shared with a test's oracle), or null
     * @param recorded the settings recorded with the run (in its checkpoint), or null for {@link #toSettings}
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public DecentralizedTrainer create(MultiLayerNetwork template, NoiseStreams streams, RunSettings recorded) {
        require(template != null, "give the model every node starts from (model(network))");
        requireRunSettings();
        Graph g = connectedGraph();
        int n = g.vertexCount();
        long seed = privacy.seed();
        MemoryCheck.require(new DecentralizedMemory(algorithm, ModelFootprint.of(template.getLayerWiseConfigurations()),
                data.shape(n, seed), n, g.edgeCount(), resolvedSampling(), batchSize != null ? batchSize : 1).estimate());
        // CDP's accounting (kappa = 1 / (n sigma^2)) is that of the released exact average; other weights release more.
        require(algorithm != DecentralizedAlgorithm.CDP || mixing == null || mixing.isAveraging(),
                "CDP averages the nodes exactly (W = 11^T / n), as its accounting assumes; drop mixing(...) or give"
                        + " MixingMatrix.averaging(graph)");
        MixingMatrix w = mixing != null ? mixing : algorithm.defaultMixing(g);
        PartySource.Local local = data.local(n, seed);
        DecentralizedPlan plan = plan(g, local.data().stream().mapToLong(org.dpdl4j.runtime.NodeData::size).min().orElseThrow());
        NoiseStreams runStreams = streams != null ? streams : privacy.noise().streams(g, seed);   // the ledger says what they are
        RunLedger ledger = plan.privacy() == null ? null : privacy.ledger(plan.privacy().relation(), runStreams.isSecure());
        DecentralizedTrainer run = new DecentralizedTrainer(template, g, w, local.data(), plan.config(), runStreams,
                plan.privacy(), ledger, recorded != null ? recorded : toSettings(n), local.report());
        if (planted != null) {
            run.plant(planted);
        }
        return run;
    }

    /**
     * The settings a checkpoint of a run built without command-line settings records, so that a resume is still
     * checked: the way back from this description to settings.
     *
     * @param n the number of nodes of the resolved graph
     */
    public RunSettings toSettings(int n) {
        RunSettings r = RunSettings.empty().with(RunOptions.SEED, privacy.seed()).with(RunOptions.ROUNDS, rounds)
                .with(PartyOptions.NODES, Integer.toString(n)).with(RunOptions.NOISE, privacy.noise());
        if (resolvedSampling() != SamplingScheme.FULL_BATCH) {
            r = r.with(RunOptions.BATCH_SIZE, (long) batchSize);
        }
        if (algorithm.isPrivate()) {
            r = r.with(RunOptions.CLIP, clip).with(RunOptions.DELTA, privacy.delta())
                    .with(DecentralizedOptions.UNIT, unit == ProtectedUnit.USER ? "user" : "example");
            r = privacy.byTarget() ? r.with(RunOptions.EPSILON, privacy.targetEpsilon())
                    : r.with(DecentralizedOptions.SIGMA_CDP, sigmaCdp)
                    .with(DecentralizedOptions.SIGMA_COR, algorithm == DecentralizedAlgorithm.DECOR ? sigmaCor : 0.0);
            if (algorithm == DecentralizedAlgorithm.DECOR) {
                r = r.with(DecentralizedOptions.ADVERSARY, adversary.name());
                if (compatibility.any()) {
                    r = r.with(DecentralizedOptions.REFERENCE_COMPAT, true);
                }
            }
        }
        return r;
    }

    /** The batch sampling: as given, else Poisson at example level (the accountant's assumption), fixed-size at user level. */
    private SamplingScheme resolvedSampling() {
        return sampling != null ? sampling
                : unit == ProtectedUnit.USER ? SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT : SamplingScheme.POISSON;
    }

    private void requireRunSettings() {
        require(learningRate != null, "give the learning rate (learningRate(...))");
        require(rounds >= 1, "give the number of rounds, at least 1 (rounds(T))");
        require(data != null, "give the nodes' data either as nodeData(list) or as split(set, how), not both");
    }

    private Graph connectedGraph() {
        Graph g = resolvedGraph();
        if (!g.isConnected()) {
            throw new IllegalArgumentException("the graph with " + g.vertexCount() + " nodes is disconnected; gossip cannot reach"
                    + " consensus. Use a connected topology");
        }
        return g;
    }

    /**
     * The configuration, its noise calibrated, and the analysis of one round, on graph {@code g} whose smallest local
     * dataset holds {@code minLocal} examples: what {@link #create} and {@link #plannedLedger} share.
     */
    private DecentralizedPlan plan(Graph g, long minLocal) {
        boolean dp = algorithm.isPrivate();
        ProtectedUnit u = unit != null ? unit : ProtectedUnit.EXAMPLE;
        if (dp) {
            require(unit != null, algorithm.cliName() + " protects either one example or one node's whole dataset: choose"
                    + " unit(ProtectedUnit.EXAMPLE) or unit(ProtectedUnit.USER)");
            require(clip > 0 && Double.isFinite(clip), algorithm.cliName() + " needs a positive finite clip norm C (clip(C)), got " + clip);
        }
        SamplingScheme s = resolvedSampling();
        int b;
        if (s == SamplingScheme.FULL_BATCH) {
            b = (int) minLocal;
        } else {
            require(batchSize != null, "give the batch size per node and round (batchSize(b)), or full-batch sampling");
            b = batchSize;
            require(b >= 1, "the batch size per node must be at least 1, got " + b);
            // Poisson sampling needs b <= m at every node; so does example-level privacy, whose analysis divides by b
            // while a node with fewer examples would divide by m.
            if ((s == SamplingScheme.POISSON || dp && u == ProtectedUnit.EXAMPLE) && b > minLocal) {
                throw new IllegalArgumentException("a node has " + minLocal + " examples, fewer than the batch size " + b
                        + "; use a batch size of at most " + minLocal + ", fewer nodes, or another split");
            }
        }
        double cdp = 0;
        double cor = 0;
        double c = dp ? clip : Double.NaN;
        DecentralizedCalibration.Result calibration = null;
        if (dp) {
            require(privacy.byTarget() != !Double.isNaN(sigmaCdp), "give either a target (target(epsilon, delta)) or the noise"
                    + " levels (noise(sigmaCdp, sigmaCor)), not both and not neither");
            if (privacy.byTarget()) {
                calibration = DecentralizedCalibration.calibrate(algorithm, u, s, c, b, minLocal,
                        rounds, privacy.targetEpsilon(), privacy.delta(), g, adversary, noisePair, privacy.accountants());
                cdp = calibration.sigmaCdp();
                cor = calibration.sigmaCor();
            } else {
                cdp = sigmaCdp;
                cor = algorithm == DecentralizedAlgorithm.DECOR ? sigmaCor : 0.0;
                require(algorithm != DecentralizedAlgorithm.DECOR || !Double.isNaN(sigmaCor), "Decor needs both noise levels:"
                        + " noise(sigmaCdp, sigmaCor)");
                require(algorithm == DecentralizedAlgorithm.DECOR || Double.isNaN(sigmaCor) || sigmaCor == 0,
                        algorithm.cliName() + " adds no pairwise noise; give sigma_cor = 0");
            }
        } else {
            require(!privacy.byTarget() && Double.isNaN(sigmaCdp), "D-SGD adds no noise: a target or noise levels do not apply");
        }
        DecentralizedConfig config = new DecentralizedConfig(algorithm, u, objective, c, cdp, cor, learningRate, weightDecay, b, s,
                rounds, privacy.seed(), compatibility);
        return new DecentralizedPlan(config, dp ? DecentralizedPrivacy.of(config, g, adversary, minLocal) : null, calibration);
    }

    private Graph resolvedGraph() {
        if (algorithm == DecentralizedAlgorithm.CDP) {
            int n = graph != null ? graph.vertexCount() : nodeCount != null ? nodeCount
                    : data != null ? data.count().orElse(-1) : -1;
            require(n >= 1, "give the number of nodes of the CDP baseline (nodes(n))");
            if (graph != null && graph.edgeCount() != (long) n * (n - 1) / 2) {
                throw new IllegalArgumentException("the CDP baseline averages exactly on the complete graph; give a complete"
                        + " graph or only the number of nodes");
            }
            return graph != null ? graph : Topologies.complete(n);
        }
        require(graph != null, "give the communication graph (graph(Topologies.ring(16)), ...)");
        if (nodeCount != null && nodeCount != graph.vertexCount()) {
            throw new IllegalArgumentException("the graph has " + graph.vertexCount() + " nodes but nodes(" + nodeCount + ") was given");
        }
        return graph;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
