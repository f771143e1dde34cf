package org.dpdl4j.protocol.randomwalk;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivateRunBuilder;

/**
 * Assembles the {@link RandomWalkRunSpec} of a random-walk SGD run from Java, then builds or prices it through the
 * spec, as the protocol's settings do: the parties' data (given or split from a training set), the token's path (drawn
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
     * The description of the walk these setters make: what {@link #build()} and {@link #plannedLedger()} go through,
     * as the protocol's settings do.
     */
    public RandomWalkRunSpec spec() {
        require(data == null || split == null, "give the parties' data either as parties(list) or as split(set, how, count)");
        PartySource source = data != null ? PartySource.given(data) : split != null ? PartySource.split(splitSet, split) : null;
        return new RandomWalkRunSpec(source, data != null ? null : parties, steps, stepSize, gradientBound, sigma, batchSize,
                privacySetup());
    }

    /**
     * Sets the walk up ({@link RandomWalkRunSpec#create}).
     *
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public RandomWalkSgd build() {
        return spec().create(template, settings);
    }

    /**
     * The ledger {@link #build()}'s walk will hold after all its hops ({@link RandomWalkRunSpec#plannedLedger}): empty
     * without noise, or when its path is secret until it is built.
     *
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
