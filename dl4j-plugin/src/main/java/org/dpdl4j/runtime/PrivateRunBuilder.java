package org.dpdl4j.runtime;

import java.util.Objects;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKind;

/**
 * The privacy set-up every run builder shares, written once: the target (epsilon, delta) the noise is calibrated to,
 * the delta of every epsilon, the budget a run stops at, where noise and sampling come from, the master seed, the
 * accountant, and the ledger they make. A protocol's builder extends it with what is its own (the noise it can be
 * given instead of a target, its graph, its data).
 *
 * @param <B> the builder itself, so that the shared setters chain with its own
 */
public abstract class PrivateRunBuilder<B extends PrivateRunBuilder<B>> {
    /** The target epsilon, NaN when the noise is given instead. */
    protected double targetEpsilon = Double.NaN;
    /** delta of every epsilon. */
    protected double delta = 1e-5;
    /** Where the run stops, NaN for the target (or none when the noise is given). */
    protected double budget = Double.NaN;
    /** Where noise and sampling come from. */
    protected NoiseKind noise = NoiseKind.SECURE;
    /** The master seed of every seeded stream. */
    protected long seed = 1;
    /** The accountant of the ledger and of the calibration. */
    protected AccountantFactory accountants = AccountantFactory.standard();

    protected PrivateRunBuilder() {
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** Calibrates the noise so that the planned steps spend at most (epsilon, delta); the budget is epsilon. */
    public B target(double epsilon, double deltaValue) {
        this.targetEpsilon = epsilon;
        this.delta = deltaValue;
        return self();
    }

    /** delta of every epsilon (with given noise; default 1e-5). */
    public B delta(double value) {
        this.delta = value;
        return self();
    }

    /** Stops before a step that would take the spent epsilon above this (default: the target, else none). */
    public B budget(double epsilon) {
        this.budget = epsilon;
        return self();
    }

    /** Where noise and sampling come from (default: secure). */
    public B noiseKind(NoiseKind value) {
        this.noise = Objects.requireNonNull(value, "noise kind");
        return self();
    }

    /** The master seed of every seeded stream: splits, sampling, seeded noise (default 1). */
    public B seed(long value) {
        this.seed = value;
        return self();
    }

    /** The accountant of the ledger and of the calibration (default: {@link AccountantFactory#standard()}). */
    public B accountant(AccountantFactory value) {
        this.accountants = Objects.requireNonNull(value, "accountant factory");
        return self();
    }

    /** Whether the noise is calibrated to a target rather than given. */
    protected boolean byTarget() {
        return !Double.isNaN(targetEpsilon);
    }

    /** What the shared setters were given, as one value. */
    protected PrivacySetup privacySetup() {
        return new PrivacySetup(targetEpsilon, delta, budget, noise, seed, accountants);
    }

    /**
     * The ledger of a run set up so: priced by the accountant for {@code relation}, checked against the budget (the
     * target when no budget was given), and marked as drawing secure noise or not.
     */
    protected RunLedger ledger(NeighbouringRelation relation, boolean secureNoise) {
        return privacySetup().ledger(relation, secureNoise);
    }
}
