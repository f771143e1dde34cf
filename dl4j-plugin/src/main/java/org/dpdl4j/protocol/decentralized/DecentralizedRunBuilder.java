package org.dpdl4j.protocol.decentralized;

import java.util.List;
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
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.options.PartyOptions;
import org.dpdl4j.runtime.PrivateRunBuilder;

/**
 * Sets up a decentralized run (D-SGD, Decor, LDP, CDP) from what a user decides, with the library's defaults for
 * the rest: the graph (any {@link Graph}; CDP always averages exactly on the complete graph), the mixing matrix
 * (Metropolis-Hastings), the nodes' data (given, or split from a training set), the sampling scheme (Poisson at
 * example level, fixed-size batches at user level), the noise (calibrated to a target (epsilon, delta) against the
 * chosen adversary, or given), the noise streams (secure by default) and the ledger.
 *
 * <pre>{@code
 * DecentralizedTrainer run = DecentralizedTrainer.builder()
 *         .algorithm(DecentralizedAlgorithm.DECOR).model(template).graph(Topologies.ring(16))
 *         .split(trainingSet, partitioner, 1L).unit(ProtectedUnit.EXAMPLE).clip(1.0).batchSize(64)
 *         .learningRate(new LearningRate.InverseTime(1.0, 5000)).rounds(1000)
 *         .target(4.0, 1e-5).adversary(Adversary.curious())
 *         .build();
 * run.runToEnd();
 * }</pre>
 */
public final class DecentralizedRunBuilder extends PrivateRunBuilder<DecentralizedRunBuilder> {
    private DecentralizedAlgorithm algorithm;
    private MultiLayerNetwork template;
    private Graph graph;
    private Integer nodes;
    private MixingMatrix mixing;
    private List<NodeData> data;
    private TrainingSet splitSet;
    private PartySplit split;
    private String splitReport;
    private ProtectedUnit unit;
    private LocalObjective objective = LocalObjective.MEAN;
    private double clip = Double.NaN;
    private Integer batchSize;
    private SamplingScheme sampling;
    private LearningRate learningRate;
    private double weightDecay;
    private long rounds;
    private double sigmaCdp = Double.NaN;
    private double sigmaCor = Double.NaN;
    private Adversary adversary = Adversary.eavesdropper();
    private NoisePairChoice noisePair = NoisePairChoice.SMALLEST_SIGMA_CDP;
    private DecorCompatibility compatibility = DecorCompatibility.NONE;
    private RunSettings settings;
    private NoiseStreams streams;
    private DecentralizedCalibration.Result calibration;
    private PlantedContributions planted;

    DecentralizedRunBuilder() {
    }

    /**
     * Contributions to add to the nodes' clipped gradients every round, to audit the run (canaries); a private
     * algorithm only.
     */
    public DecentralizedRunBuilder planted(PlantedContributions value) {
        this.planted = Objects.requireNonNull(value, "planted contributions");
        return this;
    }

    /** D-SGD, Decor, LDP or CDP. */
    public DecentralizedRunBuilder algorithm(DecentralizedAlgorithm value) {
        this.algorithm = Objects.requireNonNull(value, "algorithm");
        return this;
    }

    /** The network every node starts from (all nodes start equal); its parameters are not changed. */
    public DecentralizedRunBuilder model(MultiLayerNetwork value) {
        this.template = Objects.requireNonNull(value, "model");
        return this;
    }

    /** The communication graph (CDP: any complete graph, or leave it out and give {@link #nodes}). */
    public DecentralizedRunBuilder graph(Graph value) {
        this.graph = Objects.requireNonNull(value, "graph");
        return this;
    }

    /** The number of nodes, for CDP (the complete graph) or when the data is split. */
    public DecentralizedRunBuilder nodes(int value) {
        this.nodes = value;
        return this;
    }

    /** The gossip matrix (default: Metropolis-Hastings weights; CDP: exact averaging). */
    public DecentralizedRunBuilder mixing(MixingMatrix value) {
        this.mixing = Objects.requireNonNull(value, "mixing matrix");
        return this;
    }

    /** The nodes' local datasets, node i holding element i. */
    public DecentralizedRunBuilder nodeData(List<NodeData> value) {
        this.data = List.copyOf(value);
        return this;
    }

    /** Splits a training set over the nodes (one part per node of the graph) with the run's seed. */
    public DecentralizedRunBuilder split(TrainingSet set, PartySplit how) {
        this.splitSet = Objects.requireNonNull(set, "training set");
        this.split = Objects.requireNonNull(how, "split");
        return this;
    }

    /** Who is protected: one example, or one node's whole dataset (required for private algorithms). */
    public DecentralizedRunBuilder unit(ProtectedUnit value) {
        this.unit = Objects.requireNonNull(value, "protected unit");
        return this;
    }

    /** The local objective: the mean (default) or the sum of the batch's losses. */
    public DecentralizedRunBuilder objective(LocalObjective value) {
        this.objective = Objects.requireNonNull(value, "objective");
        return this;
    }

    /** C, the clip of each example's or each node's gradient (required for private algorithms). */
    public DecentralizedRunBuilder clip(double value) {
        this.clip = value;
        return this;
    }

    /** Examples per node and round (the expected number under Poisson sampling). */
    public DecentralizedRunBuilder batchSize(int value) {
        this.batchSize = value;
        return this;
    }

    /** POISSON, FIXED_SIZE_WITHOUT_REPLACEMENT, or FULL_BATCH (every local example every round). */
    public DecentralizedRunBuilder sampling(SamplingScheme value) {
        this.sampling = Objects.requireNonNull(value, "sampling");
        return this;
    }

    public DecentralizedRunBuilder learningRate(LearningRate value) {
        this.learningRate = Objects.requireNonNull(value, "learning rate");
        return this;
    }

    public DecentralizedRunBuilder weightDecay(double value) {
        this.weightDecay = value;
        return this;
    }

    /** T, the rounds the noise is calibrated for. */
    public DecentralizedRunBuilder rounds(long value) {
        this.rounds = value;
        return this;
    }

    /** Given noise levels instead of a target (sigma_cor only for Decor). */
    public DecentralizedRunBuilder noise(double sigmaCdpValue, double sigmaCorValue) {
        this.sigmaCdp = sigmaCdpValue;
        this.sigmaCor = sigmaCorValue;
        return this;
    }

    /** Against whom Decor's guarantee holds (default: an eavesdropper). */
    public DecentralizedRunBuilder adversary(Adversary value) {
        this.adversary = Objects.requireNonNull(value, "adversary");
        return this;
    }

    /** Which calibrated Decor pair (default: the smallest sigma_cdp). */
    public DecentralizedRunBuilder noisePair(NoisePairChoice value) {
        this.noisePair = Objects.requireNonNull(value, "noise pair");
        return this;
    }

    /** The Decor reference code's deviations (figures only; the ledger does not cover them). */
    public DecentralizedRunBuilder compatibility(DecorCompatibility value) {
        this.compatibility = Objects.requireNonNull(value, "compatibility");
        return this;
    }

    /**
     * Every engine setting at once, from a prepared configuration: algorithm, unit, objective, clip, the noise levels
     * (as given noise), learning rate, weight decay, batch size, sampling, rounds, seed and reference-code deviations.
     */
    public DecentralizedRunBuilder config(DecentralizedConfig c) {
        algorithm(c.algorithm()).unit(c.unit()).objective(c.objective()).learningRate(c.learningRate()).weightDecay(c.weightDecay())
                .batchSize(c.batchSize()).sampling(c.sampling()).rounds(c.rounds()).seed(c.seed()).compatibility(c.compatibility());
        if (c.algorithm().isPrivate()) {
            clip(c.clipNorm()).noise(c.sigmaCdp(), c.sigmaCor());
        }
        return this;
    }

    /** Noise streams to use instead of those of the noise kind (e.g. streams shared with a test's oracle). */
    public DecentralizedRunBuilder streams(NoiseStreams value) {
        this.streams = Objects.requireNonNull(value, "noise streams");
        return this;
    }

    /** The settings recorded with the run (in its checkpoint); by default those the builder was given. */
    public DecentralizedRunBuilder settings(RunSettings value) {
        this.settings = Objects.requireNonNull(value, "settings");
        return this;
    }

    /** The calibration of the last {@link #build()} (null with given noise or for D-SGD). */
    public DecentralizedCalibration.Result calibration() {
        return calibration;
    }

    /**
     * Sets the run up.
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public DecentralizedTrainer build() {
        require(algorithm != null, "choose the algorithm (algorithm(DecentralizedAlgorithm.DECOR), ...)");
        require(planted == null || algorithm.isPrivate(), "planted contributions audit a private algorithm; "
                + algorithm.cliName() + " adds no noise");
        require(template != null, "give the model every node starts from (model(network))");
        requireRunSettings();
        Graph g = connectedGraph();
        int n = g.vertexCount();
        SamplingScheme planned = sampling != null ? sampling
                : unit == ProtectedUnit.USER ? SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT : SamplingScheme.POISSON;
        DataShape shape = data != null ? DataShape.of(data) : DataShape.of(splitSet, split, n, seed);
        MemoryCheck.require(new DecentralizedMemory(algorithm, ModelFootprint.of(template.getLayerWiseConfigurations()), shape, n,
                g.edgeCount(), planned, batchSize != null ? batchSize : 1).estimate());
        MixingMatrix w = mixing != null ? mixing : algorithm.defaultMixing(g);
        List<NodeData> local = nodeData(n);
        DecentralizedPlan plan = plan(g, local.stream().mapToLong(NodeData::size).min().orElseThrow());
        DecentralizedConfig config = plan.config();
        NoiseStreams runStreams = streams != null ? streams : noise.streams(g, seed);   // the ledger says what they are
        RunLedger ledger = plan.privacy() == null ? null : ledger(plan.privacy().relation(), runStreams.isSecure());
        RunSettings recorded = settings != null ? settings : settingsOf(config, n);
        DecentralizedTrainer run = new DecentralizedTrainer(template, g, w, local, config, runStreams, plan.privacy(), ledger,
                recorded, splitReport);
        if (planted != null) {
            run.plant(planted);
        }
        return run;
    }

    /**
     * The ledger {@link #build()}'s run will hold after its planned rounds, with the relation it is priced under, worked out from the settings, the graph and
     * the sizes of the nodes' data: no model is needed and no noise stream is opened (a split is drawn for its sizes
     * only). The settings are checked as {@link #build()} checks them.
     *
     * @return empty for D-SGD, which has no guarantee
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        require(algorithm != null, "choose the algorithm (algorithm(DecentralizedAlgorithm.DECOR), ...)");
        requireRunSettings();
        Graph g = connectedGraph();
        if (data != null && data.size() != g.vertexCount()) {
            throw new IllegalArgumentException("the graph has " + g.vertexCount() + " nodes but " + data.size() + " local datasets"
                    + " were given");
        }
        long[] sizes = data != null ? data.stream().mapToLong(NodeData::size).toArray()
                : splitSet.partySizes(split, g.vertexCount(), seed);
        boolean secure = streams != null ? streams.isSecure() : noise.isSecure();
        return plan(g, java.util.Arrays.stream(sizes).min().orElseThrow()).plannedLedger(secure);
    }

    private void requireRunSettings() {
        require(learningRate != null, "give the learning rate (learningRate(...))");
        require(rounds >= 1, "give the number of rounds, at least 1 (rounds(T))");
        require((data == null) != (split == null), "give the nodes' data either as nodeData(list) or as split(set, how), not both");
    }

    private Graph connectedGraph() {
        Graph g = graph();
        if (!g.isConnected()) {
            throw new IllegalArgumentException("the graph with " + g.vertexCount() + " nodes is disconnected; gossip cannot reach"
                    + " consensus. Use a connected topology");
        }
        return g;
    }

    /**
     * The configuration, its noise calibrated, and the analysis of one round, on graph {@code g} whose smallest local
     * dataset holds {@code minLocal} examples: what {@link #build()} and {@link #plannedLedger()} share.
     */
    private DecentralizedPlan plan(Graph g, long minLocal) {
        boolean dp = algorithm.isPrivate();
        ProtectedUnit u = unit != null ? unit : ProtectedUnit.EXAMPLE;
        if (dp) {
            require(unit != null, algorithm.cliName() + " protects either one example or one node's whole dataset: choose"
                    + " unit(ProtectedUnit.EXAMPLE) or unit(ProtectedUnit.USER)");
            require(clip > 0 && Double.isFinite(clip), algorithm.cliName() + " needs a positive finite clip norm C (clip(C)), got " + clip);
        }
        SamplingScheme s = sampling != null ? sampling
                : u == ProtectedUnit.EXAMPLE ? SamplingScheme.POISSON : SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT;
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
        if (dp) {
            boolean byTarget = !Double.isNaN(targetEpsilon);
            require(byTarget != !Double.isNaN(sigmaCdp), "give either a target (target(epsilon, delta)) or the noise levels"
                    + " (noise(sigmaCdp, sigmaCor)), not both and not neither");
            if (byTarget) {
                calibration = DecentralizedCalibration.calibrate(algorithm, u, s, c, b, minLocal, rounds, targetEpsilon, delta, g,
                        adversary, noisePair, accountants);
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
            require(Double.isNaN(targetEpsilon) && Double.isNaN(sigmaCdp), "D-SGD adds no noise: a target or noise levels do not apply");
        }
        DecentralizedConfig config = new DecentralizedConfig(algorithm, u, objective, c, cdp, cor, learningRate, weightDecay, b, s,
                rounds, seed, compatibility);
        return new DecentralizedPlan(config, dp ? DecentralizedPrivacy.of(config, g, adversary, minLocal) : null);
    }

    /** What a checkpoint of a run built without settings records, so that a resume is still checked. */
    private RunSettings settingsOf(DecentralizedConfig c, int n) {
        RunSettings r = RunSettings.empty().with(RunOptions.SEED, c.seed()).with(RunOptions.ROUNDS, c.rounds())
                .with(PartyOptions.NODES, Integer.toString(n)).with(RunOptions.NOISE, noise);
        if (c.sampling() != SamplingScheme.FULL_BATCH) {
            r = r.with(RunOptions.BATCH_SIZE, (long) c.batchSize());
        }
        if (c.algorithm().isPrivate()) {
            r = r.with(RunOptions.CLIP, c.clipNorm()).with(RunOptions.DELTA, delta)
                    .with(DecentralizedOptions.UNIT, c.unit() == ProtectedUnit.USER ? "user" : "example");
            r = !Double.isNaN(targetEpsilon) ? r.with(RunOptions.EPSILON, targetEpsilon)
                    : r.with(DecentralizedOptions.SIGMA_CDP, c.sigmaCdp()).with(DecentralizedOptions.SIGMA_COR, c.sigmaCor());
            if (c.algorithm() == DecentralizedAlgorithm.DECOR) {
                r = r.with(DecentralizedOptions.ADVERSARY, adversary.name());
            }
        }
        return r;
    }

    private Graph graph() {
        if (algorithm == DecentralizedAlgorithm.CDP) {
            int n = graph != null ? graph.vertexCount() : nodes != null ? nodes : data != null ? data.size() : -1;
            require(n >= 1, "give the number of nodes of the CDP baseline (nodes(n))");
            if (graph != null && graph.edgeCount() != (long) n * (n - 1) / 2) {
                throw new IllegalArgumentException("the CDP baseline averages exactly on the complete graph; give a complete"
                        + " graph or only the number of nodes");
            }
            return graph != null ? graph : Topologies.complete(n);
        }
        require(graph != null, "give the communication graph (graph(Topologies.ring(16)), ...)");
        if (nodes != null && nodes != graph.vertexCount()) {
            throw new IllegalArgumentException("the graph has " + graph.vertexCount() + " nodes but nodes(" + nodes + ") was given");
        }
        return graph;
    }

    private List<NodeData> nodeData(int n) {
        if (data != null) {
            if (data.size() != n) {
                throw new IllegalArgumentException("the graph has " + n + " nodes but " + data.size() + " local datasets were given");
            }
            splitReport = null;
            return data;
        }
        TrainingSet.Parties parts = splitSet.split(split, n, seed);
        splitReport = parts.report();
        return parts.data();
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
