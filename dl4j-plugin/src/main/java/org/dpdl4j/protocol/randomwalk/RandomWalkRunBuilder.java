package org.dpdl4j.protocol.randomwalk;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PlannedLedger;
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
 * Sets up a random-walk SGD run: the parties' data (given or split from a training set), the token's path (drawn
 * up front from the server-free sampling stream, independent of the data), the noise (calibrated so that the most
 * visited party stays within the target, or given) and the ledger, which charges each visit to the visited party.
 */
public final class RandomWalkRunBuilder extends PrivateRunBuilder<RandomWalkRunBuilder> {
    private MultiLayerNetwork template;
    private List<NodeData> data;
    private TrainingSet splitSet;
    private PartySplit split;
    private Integer parties;
    private long steps;
    private double stepSize = Double.NaN;
    private double gradientBound = Double.POSITIVE_INFINITY;
    private double sigma = Double.NaN;
    private int batchSize;
    private RunSettings settings;

    RandomWalkRunBuilder() {
    }

    public RandomWalkRunBuilder model(MultiLayerNetwork value) {
        this.template = Objects.requireNonNull(value, "model");
        return this;
    }

    /** The parties' local datasets. */
    public RandomWalkRunBuilder parties(List<NodeData> value) {
        this.data = List.copyOf(value);
        return this;
    }

    /** Splits a training set over {@code count} parties with the run's seed. */
    public RandomWalkRunBuilder split(TrainingSet set, PartySplit how, int count) {
        this.splitSet = Objects.requireNonNull(set, "training set");
        this.split = Objects.requireNonNull(how, "split");
        this.parties = count;
        return this;
    }

    /** T, the token's hops. */
    public RandomWalkRunBuilder steps(long value) {
        this.steps = value;
        return this;
    }

    /** gamma, the constant step size. */
    public RandomWalkRunBuilder stepSize(double value) {
        this.stepSize = value;
        return this;
    }

    /** L_F, the clip of every local gradient (required with noise). */
    public RandomWalkRunBuilder gradientBound(double value) {
        this.gradientBound = value;
        return this;
    }

    /** A given noise std instead of a target (0 for a non-private walk). */
    public RandomWalkRunBuilder sigma(double value) {
        this.sigma = value;
        return this;
    }

    /** Examples of a local gradient, uniform without replacement; 0 (default) for the party's full dataset. */
    public RandomWalkRunBuilder batchSize(int value) {
        this.batchSize = value;
        return this;
    }

    public RandomWalkRunBuilder settings(RunSettings value) {
        this.settings = Objects.requireNonNull(value, "settings");
        return this;
    }

    /**
     * Sets the walk up.
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public RandomWalkSgd build() {
        require(template != null, "give the model the token starts from (model(network))");
        requireWalk();
        String report = null;
        List<NodeData> local = data;
        int count = local != null ? local.size() : parties;
        DataShape shape = local != null ? DataShape.of(local) : DataShape.of(splitSet, split, count, seed);
        MemoryCheck.require(new RandomWalkMemory(ModelFootprint.of(template.getLayerWiseConfigurations()), shape, count, steps,
                batchSize).estimate());
        if (local == null) {
            TrainingSet.Parties parts = splitSet.split(split, parties, seed);
            report = parts.report();
            local = parts.data();
        }
        int k = local.size();
        NoiseStreams streams = noise.streams(k, seed);
        WalkPlan plan = plan(k, RandomWalkSgd.drawPath(k, steps, streams.sampling(0, 0)));
        RunLedger ledger = plan.privacy() == null ? null : ledger(plan.privacy().relation(), noise.isSecure());
        return new RandomWalkSgd(template, local, plan.config(), streams, plan.path(), plan.privacy(), ledger,
                settings != null ? settings : RunSettings.empty(), report);
    }

    /**
     * The ledger {@link #build()}'s walk will hold after all its hops, with the relation it is priced under, from the
     * settings and the parties' data sizes: no model is needed and no noise is drawn. The settings are checked as
     * {@link #build()} checks them.
     *
     * <p>The visits the walk charges follow its path, and with secure randomness the path is drawn from secret
     * randomness when the walk is built, so nothing can tell it before: then the plan is empty. With seeded randomness
     * the path is a function of the seed alone (never of the data), drawn here exactly as {@link #build()} draws it.
     *
     * @return empty for a walk without noise, or one whose path is secret until it is built
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        requireWalk();
        int k = data != null ? data.size() : splitSet.partySizes(split, parties, seed).length;
        if (noise.isSecure()) {
            requireOneNoiseChoice();
            return Optional.empty();
        }
        WalkPlan plan = plan(k, RandomWalkSgd.drawPath(k, steps, noise.streams(k, seed).sampling(0, 0)));
        return plan.privacy() == null ? Optional.empty()
                : Optional.of(new PlannedLedger(plan.privacy().plannedLedger(plan.path(), noise.isSecure()), plan.privacy().relation()));
    }

    /** What every walk needs, whatever its model: data, hops, step size, parties. */
    private void requireWalk() {
        require((data == null) != (split == null), "give the parties' data either as parties(list) or as split(set, how, count)");
        require(steps >= 1 && steps <= Integer.MAX_VALUE, "give the number of hops, from 1 to 2^31 - 1 (steps(T))");
        require(stepSize > 0 && Double.isFinite(stepSize), "give a positive finite step size gamma (stepSize(gamma))");
        if (data == null) {
            require(parties != null && parties >= 1, "give the number of parties, at least 1");
        }
    }

    private void requireOneNoiseChoice() {
        require(!(byTarget() && !Double.isNaN(sigma)), "give either a target (target(epsilon, delta)) or a noise std (sigma(s)),"
                + " not both");
    }

    /** The walk's path, its noise (calibrated to the most visited party) and accounting: what build and pricing share. */
    private WalkPlan plan(int k, int[] path) {
        long[] visits = RandomWalkSgd.visitCounts(k, path);
        long maxVisits = java.util.Arrays.stream(visits).max().orElse(0);
        requireOneNoiseChoice();
        LedgerAccounting accounting = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE);
        double s = byTarget() ? RandomWalkPrivacy.calibrate(maxVisits, gradientBound, targetEpsilon, delta, accounting)
                : Double.isNaN(sigma) ? 0.0 : sigma;
        if (s > 0) {
            require(gradientBound > 0 && Double.isFinite(gradientBound), "a private walk needs a finite gradient bound L_F"
                    + " (gradientBound(L)): every local gradient is clipped to it");
        }
        RandomWalkConfig config = new RandomWalkConfig(steps, stepSize, gradientBound, s, batchSize, seed);
        return new WalkPlan(config, path, s > 0 ? new RandomWalkPrivacy(visits, gradientBound, s, delta) : null);
    }

    /** A walk's settings resolved on its path; {@code privacy} is null without noise. */
    private record WalkPlan(RandomWalkConfig config, int[] path, RandomWalkPrivacy privacy) {
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
