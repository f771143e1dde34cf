package org.dpdl4j.protocol.muffliato;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivateRunBuilder;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * Sets up a Muffliato-GD run: the graph and its Metropolis-Hastings matrix, the nodes' data (given, or split from a
 * training set), the noise (given, or calibrated to a target on local DP or on the mean or max pairwise epsilon), the
 * pairwise accountant and the ledger (which charges every node each round).
 */
public final class MuffliatoRunBuilder extends PrivateRunBuilder<MuffliatoRunBuilder> {
    /** What a target epsilon bounds. */
    public enum CalibrationTarget {
        /** Local DP, the ledger's guarantee. */
        LOCAL,
        /** The mean pairwise epsilon over ordered pairs. */
        PAIRWISE_MEAN,
        /** The largest pairwise epsilon. */
        PAIRWISE_MAX;

        /** Parses {@code local}, {@code pairwise-mean} or {@code pairwise-max}. */
        public static CalibrationTarget parse(String text) {
            return valueOf(text.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        }
    }

    private MultiLayerNetwork template;
    private Graph graph;
    private List<NodeData> data;
    private boolean sumObjective;
    private TrainingSet splitSet;
    private PartySplit split;
    private long rounds;
    private int gossipSteps = 10;
    private GossipScheme scheme = GossipScheme.CHEBYSHEV;
    private double stepSize = Double.NaN;
    private double clip = Double.NaN;
    private double sigma = Double.NaN;
    private CalibrationTarget calibrateTo = CalibrationTarget.LOCAL;
    private RunSettings settings;

    MuffliatoRunBuilder() {
    }

    public MuffliatoRunBuilder model(MultiLayerNetwork value) {
        this.template = Objects.requireNonNull(value, "model");
        return this;
    }

    /** The communication graph; gossip uses its Metropolis-Hastings weights. */
    public MuffliatoRunBuilder graph(Graph value) {
        this.graph = Objects.requireNonNull(value, "graph");
        return this;
    }

    /**
     * The nodes' local datasets.
     *
     * @param sum whether a node's loss is the sum over its examples (a task that defines its users) rather than the mean
     */
    public MuffliatoRunBuilder nodeData(List<NodeData> value, boolean sum) {
        this.data = List.copyOf(value);
        this.sumObjective = sum;
        return this;
    }

    /** Splits a training set over the graph's nodes with the run's seed; each node's loss is its mean loss. */
    public MuffliatoRunBuilder split(TrainingSet set, PartySplit how) {
        this.splitSet = Objects.requireNonNull(set, "training set");
        this.split = Objects.requireNonNull(how, "split");
        return this;
    }

    /** K. */
    public MuffliatoRunBuilder rounds(long value) {
        this.rounds = value;
        return this;
    }

    /** T per round (default 10). */
    public MuffliatoRunBuilder gossipSteps(int value) {
        this.gossipSteps = value;
        return this;
    }

    /** Plain or Chebyshev (default). */
    public MuffliatoRunBuilder scheme(GossipScheme value) {
        this.scheme = Objects.requireNonNull(value, "scheme");
        return this;
    }

    /** gamma. */
    public MuffliatoRunBuilder stepSize(double value) {
        this.stepSize = value;
        return this;
    }

    /** L, the clip of every local gradient. */
    public MuffliatoRunBuilder clip(double value) {
        this.clip = value;
        return this;
    }

    /** A given noise std instead of a target (0 for the non-private reference). */
    public MuffliatoRunBuilder sigma(double value) {
        this.sigma = value;
        return this;
    }

    /** What {@link #target(double, double)} bounds (default local DP). */
    public MuffliatoRunBuilder calibrateTo(CalibrationTarget value) {
        this.calibrateTo = Objects.requireNonNull(value, "calibration target");
        return this;
    }

    public MuffliatoRunBuilder settings(RunSettings value) {
        this.settings = Objects.requireNonNull(value, "settings");
        return this;
    }

    /**
     * The description of the run these setters make: what {@link #build()} and {@link #plannedLedger()} go through,
     * as the protocol's settings do.
     */
    public MuffliatoRunSpec spec() {
        require(data == null || split == null, "give the nodes' data either as nodeData(list, sum) or as split(set, how)");
        PartySource source = data != null ? PartySource.given(data) : split != null ? PartySource.split(splitSet, split) : null;
        return new MuffliatoRunSpec(graph, source, sumObjective, rounds, gossipSteps, scheme, stepSize, clip, sigma, calibrateTo,
                privacySetup());
    }

    /**
     * Sets the run up ({@link MuffliatoRunSpec#create}).
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public MuffliatoGd build() {
        return spec().create(template, settings);
    }

    /**
     * The ledger {@link #build()}'s run will hold after all its rounds ({@link MuffliatoRunSpec#plannedLedger}).
     *
     * @return empty for the non-private reference (no noise)
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        return spec().plannedLedger();
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
