package org.dpdl4j.protocol.muffliato;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.PrivacySetup;
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
     * Sets the run up.
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public MuffliatoGd build() {
        require(template != null, "give the model every node starts from (model(network))");
        requireRun();
        int n = graph.vertexCount();
        DataShape shape = data != null ? DataShape.of(data) : DataShape.of(splitSet, split, n, seed);
        MemoryCheck.require(new MuffliatoMemory(ModelFootprint.of(template.getLayerWiseConfigurations()), shape, n).estimate());
        String report = null;
        List<NodeData> local = data;
        if (local == null) {
            TrainingSet.Parties parts = splitSet.split(split, n, seed);
            report = parts.report();
            local = parts.data();
        }
        require(local.size() == n, "the graph has " + n + " nodes but " + local.size() + " local datasets were given");
        Plan plan = plan();
        RunLedger ledger = null;
        if (plan.privacy() != null) {
            // A pairwise target is not a local-DP budget: the ledger then stops only at an explicit budget.
            ledger = byTarget() && calibrateTo != CalibrationTarget.LOCAL
                    ? new PrivacySetup(Double.NaN, delta, budget, noise, seed, accountants).ledger(plan.privacy().relation(),
                            noise.isSecure())
                    : ledger(plan.privacy().relation(), noise.isSecure());
        }
        return new MuffliatoGd(template, local, sumObjective, plan.config(), plan.gossip(), noise.streams(graph, seed), plan.privacy(),
                ledger, settings != null ? settings : RunSettings.empty(), report);
    }

    /**
     * The ledger {@link #build()}'s run will hold after all its rounds, with the relation it is priced under, from the
     * settings and the graph: no model is needed and no noise stream is opened (a split is drawn for its sizes only, to
     * check it). The settings are checked as {@link #build()} checks them.
     *
     * @return empty for the non-private reference (no noise)
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        requireRun();
        int n = graph.vertexCount();
        int datasets = data != null ? data.size() : splitSet.partySizes(split, n, seed).length;
        require(datasets == n, "the graph has " + n + " nodes but " + datasets + " local datasets were given");
        MuffliatoPrivacy privacy = plan().privacy();
        return privacy == null ? Optional.empty()
                : Optional.of(new PlannedLedger(privacy.plannedLedger(n, noise.isSecure()), privacy.relation()));
    }

    /** What every run needs, whatever its model: graph, data, rounds, step, clip, one noise choice. */
    private void requireRun() {
        require(graph != null, "give the communication graph (graph(g))");
        require((data == null) != (split == null), "give the nodes' data either as nodeData(list, sum) or as split(set, how)");
        require(rounds >= 1 && rounds <= Integer.MAX_VALUE, "give the number of rounds, from 1 to 2^31 - 1 (rounds(K))");
        require(stepSize > 0 && Double.isFinite(stepSize), "give a positive finite step size gamma (stepSize(gamma))");
        require(clip > 0 && Double.isFinite(clip), "give the gradient clip L (clip(L)): one node's data moves its gradient by"
                + " at most 2L, the sensitivity every guarantee uses");
        require(!(byTarget() && !Double.isNaN(sigma)), "give either a target (target(epsilon, delta)) or a noise std (sigma(s)), not both");
        require(graph.vertexCount() >= 2, "Muffliato needs a graph of at least two nodes; it has " + graph.vertexCount());
    }

    /** The gossip, the noise (calibrated to the target) and its accounting on the graph: what build and pricing share. */
    private Plan plan() {
        GossipPolynomial gossip = new GossipPolynomial(MixingMatrix.metropolisHastings(graph), scheme);
        LedgerAccounting accounting = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE);
        PairwiseNetworkDp pairwise = null;
        double s = Double.isNaN(sigma) ? 0.0 : sigma;
        boolean byTarget = byTarget();
        if (byTarget || s > 0) {
            pairwise = PairwiseNetworkDp.of(gossip.matrix(), scheme, gossipSteps);
        }
        if (byTarget) {
            s = switch (calibrateTo) {
                // Calibrated by the ledger's own accounting, so the noise is the least the reported bound allows.
                case LOCAL -> accounting.calibrate(v -> new GaussianEvent(v / clip), rounds, delta, targetEpsilon).noise();
                case PAIRWISE_MEAN -> 2 * clip * pairwise.noiseMultiplierFor(targetEpsilon, rounds, delta, PairwiseNetworkDp.Target.MEAN);
                case PAIRWISE_MAX -> 2 * clip * pairwise.noiseMultiplierFor(targetEpsilon, rounds, delta, PairwiseNetworkDp.Target.MAX);
            };
        }
        MuffliatoConfig config = new MuffliatoConfig(rounds, gossipSteps, scheme, stepSize, clip, s, seed);
        return new Plan(config, gossip, s > 0 ? new MuffliatoPrivacy(pairwise, clip, s, delta, rounds) : null);
    }

    /** A run's settings resolved on its graph; {@code privacy} is null without noise. */
    private record Plan(MuffliatoConfig config, GossipPolynomial gossip, MuffliatoPrivacy privacy) {
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
