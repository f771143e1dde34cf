package org.dpdl4j.demo.dpgd;

import static org.dpdl4j.runtime.options.RunOptions.CLIP;
import static org.dpdl4j.runtime.options.RunOptions.DELTA;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON_BUDGET;
import static org.dpdl4j.runtime.options.RunOptions.LEARNING_RATE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE_MULTIPLIER;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;
import static org.dpdl4j.runtime.options.RunOptions.SEED;

import java.util.List;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * {@code dp-gd}: full-batch gradient descent with per-example clipping and Gaussian noise of a given multiplier,
 * accounted by the library's standard ledger (one Gaussian mechanism per step, add-or-remove-one). A protocol
 * written outside the library, to show that a new protocol is one package and one registry line.
 */
public final class DpGdProtocol implements Protocol {
    @Override
    public String name() {
        return DpGdRun.PROTOCOL;
    }

    @Override
    public String family() {
        return "demo";
    }

    @Override
    public String summary() {
        return "full-batch DP gradient descent (a protocol registered from outside the library)";
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    /** Its examples' clipped gradients are summed independently, so an engine of blocks may split them. */
    @Override
    public boolean splitsIntoBlocks() {
        return true;
    }

    @Override
    public List<RunOption<?>> options() {
        return List.of(SEED, ROUNDS, LEARNING_RATE, CLIP, NOISE_MULTIPLIER, DELTA, EPSILON_BUDGET, NOISE);
    }

    /** One model and its gradient, and the whole training set's activations and errors in every step. */
    @Override
    public MemoryEstimate memory(RunSettings s, RunInputs inputs) {
        ModelFootprint m = inputs.model().footprint();
        return MemoryEstimate.of(name() + " with " + m.describe())
                .arrays("the model and its gradient", 2, m.parameters(), m.valueBytes())
                .arrays("the activations and errors of the training set", inputs.train().size(), 5 * m.activations(), m.valueBytes())
                .fix("a smaller model").build();
    }

    @Override
    public TrainingRun create(RunSettings s, RunInputs inputs) {
        long seed = s.get(SEED, 1L);
        double budget = s.get(EPSILON_BUDGET, Double.POSITIVE_INFINITY);
        double delta = s.get(DELTA, 1e-5);
        NoiseKind noise = s.get(NOISE, NoiseKind.SECURE);
        RunLedger ledger = new RunLedger(LedgerAccounting.standard(NeighbouringRelation.ADD_OR_REMOVE_ONE),
                Double.isInfinite(budget) ? PrivacyBudget.unlimited(delta) : new PrivacyBudget(budget, delta), noise.isSecure());
        return new DpGdRun(inputs.model().build(new Sgd(1.0), 0.0, seed), inputs.train(),
                s.require(ROUNDS, "dp-gd needs --rounds"), s.require(LEARNING_RATE, "dp-gd needs --lr"),
                s.require(CLIP, "dp-gd needs --clip"), s.require(NOISE_MULTIPLIER, "dp-gd needs --noise-multiplier"), noise,
                seed, ledger, s);
    }
}
