package org.dpdl4j.protocol.decentralized;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivateRunBuilder;

/**
 * Assembles the {@link DecentralizedRunSpec} of a decentralized run (D-SGD, Decor, LDP, CDP) from Java, then builds or
 * prices it through the spec, as the protocol's settings do. What a user decides, with the library's defaults for
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

    /**
     * The description of the run these setters make, checked as far as it goes without a graph and data: what
     * {@link #build()} and {@link #plannedLedger()} go through, as the protocol's settings do.
     */
    public DecentralizedRunSpec spec() {
        require(data == null || split == null, "give the nodes' data either as nodeData(list) or as split(set, how), not both");
        PartySource source = data != null ? PartySource.given(data) : split != null ? PartySource.split(splitSet, split) : null;
        return new DecentralizedRunSpec(algorithm, graph, nodes, mixing, source, unit, objective, clip, batchSize, sampling,
                learningRate, weightDecay, rounds, sigmaCdp, sigmaCor, adversary, noisePair, compatibility, privacySetup(),
                planted);
    }

    /** What the target calibrates ({@link DecentralizedRunSpec#calibration}); null with given noise or for D-SGD. */
    public DecentralizedCalibration.Result calibration() {
        return spec().calibration();
    }

    /**
     * Sets the run up ({@link DecentralizedRunSpec#create}).
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public DecentralizedTrainer build() {
        return spec().create(template, streams, settings);
    }

    /**
     * The ledger {@link #build()}'s run will hold after its planned rounds, with the relation it is priced under
     * ({@link DecentralizedRunSpec#plannedLedger}): no model is needed and no noise stream is opened.
     *
     * @return empty for D-SGD, which has no guarantee
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        return spec().plannedLedger(streams != null ? streams.isSecure() : noise.isSecure());
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
