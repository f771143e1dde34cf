package org.dpdl4j.demo.dpgd;

import static org.dpdl4j.runtime.options.RunOptions.BATCH_SIZE;
import static org.dpdl4j.runtime.options.RunOptions.CLIP;
import static org.dpdl4j.runtime.options.RunOptions.DELTA;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON_BUDGET;
import static org.dpdl4j.runtime.options.RunOptions.LEARNING_RATE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE_MULTIPLIER;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;
import static org.dpdl4j.runtime.options.RunOptions.SEED;

import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The one description of a {@code dp-gd} run, parsed from its settings and the size of its training set: what
 * {@link DpGdProtocol#create} builds and {@link DpGdProtocol#plannedLedger} prices, so both read the settings the
 * same way.
 *
 * @param rounds          T steps
 * @param learningRate    eta
 * @param clip            the per-example clipping norm C
 * @param noiseMultiplier z: given, or calibrated so that T Gaussian steps reach the target epsilon
 * @param batchSize       examples per step, taken in a fixed cyclic order (the whole training set by default)
 * @param delta           the delta every epsilon is stated at
 * @param budget          the epsilon the run may not pass (the target, unless a budget is given; +Infinity for none)
 * @param noise           secure or seeded noise
 * @param seed            the seed of the model and of seeded noise
 */
record DpGdConfig(long rounds, double learningRate, double clip, double noiseMultiplier, int batchSize, double delta,
                  double budget, NoiseKind noise, long seed) {
    /** Adding or removing one example moves a step's clipped sum by at most C. */
    private static final NeighbouringRelation RELATION = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    /**
     * Reads and checks the settings.
     *
     * @param examples the size of the training set
     * @throws org.dpdl4j.runtime.options.InvalidOptionException naming a missing or impossible setting
     */
    static DpGdConfig of(RunSettings s, long examples) {
        long rounds = s.require(ROUNDS, "dp-gd needs --rounds");
        double delta = s.get(DELTA, 1e-5);
        if (s.has(EPSILON) == s.has(NOISE_MULTIPLIER)) {
            throw EPSILON.invalid("dp-gd needs either --epsilon (the noise is calibrated to it) or --noise-multiplier,"
                    + " not both and not neither");
        }
        double z = s.get(NOISE_MULTIPLIER).orElseGet(() -> calibrated(rounds, s.get(EPSILON).orElseThrow(), delta));
        long batch = s.get(BATCH_SIZE, 0L);
        if (batch > examples) {
            throw BATCH_SIZE.invalid("--batch-size " + batch + " is larger than the " + examples + " training examples;"
                    + " give at most " + examples + ", or 0 for all of them");
        }
        double budget = s.get(EPSILON_BUDGET).orElse(s.get(EPSILON).orElse(Double.POSITIVE_INFINITY));
        return new DpGdConfig(rounds, s.require(LEARNING_RATE, "dp-gd needs --lr"), s.require(CLIP, "dp-gd needs --clip"),
                z, (int) (batch == 0 ? examples : batch), delta, budget, s.get(NOISE, NoiseKind.SECURE), s.get(SEED, 1L));
    }

    /**
     * The multiplier at which T Gaussian steps reach {@code epsilon}: the steps compose to a Gaussian mechanism of
     * mu = sqrt(T) / z, priced by the exact Gaussian curve; a hair more noise keeps the last step inside the target.
     */
    private static double calibrated(long rounds, double epsilon, double delta) {
        return Math.sqrt(rounds) / GaussianPrivacyCurve.mu(epsilon, delta) * (1 + 1e-9);
    }

    /** The step's mechanism: the noisy sum of clipped gradients, sensitivity C under adding or removing one example. */
    GaussianEvent step() {
        return new GaussianEvent(noiseMultiplier);
    }

    /** What the step's ledger entry says. */
    String mechanism() {
        return "dp-gd step: batch of " + batchSize + ", per-example clip C = " + clip + ", N(0, (" + noiseMultiplier + " C)^2)";
    }

    /** The run's empty ledger, priced by the library's standard accounting. */
    RunLedger ledger() {
        return new RunLedger(accounting(), Double.isInfinite(budget) ? PrivacyBudget.unlimited(delta)
                : new PrivacyBudget(budget, delta), noise.isSecure());
    }

    /** The ledger after the planned steps: T times the step's mechanism, charged to every example (conservative). */
    PlannedLedger plannedLedger() {
        return new PlannedLedger(PrivacyLedger.plannedRepetition(step(), mechanism(), rounds, noise.isSecure()), RELATION);
    }

    private static LedgerAccounting accounting() {
        return LedgerAccounting.standard(RELATION);
    }
}
