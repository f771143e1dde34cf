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

import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.ConfiguredProtocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * {@code dp-gd}: gradient descent with per-example clipping and Gaussian noise, on the whole training set or on
 * batches in a fixed cyclic order, its noise given as a multiplier or calibrated to a target epsilon, accounted by the
 * library's standard ledger (one Gaussian mechanism per step, add-or-remove-one). A protocol written outside the
 * library, to show that a new protocol is one package and one registry line: it declares an observer to attack it
 * through, splits into blocks on an engine of blocks, and prices a run from its settings ({@link DpGdConfig}).
 */
public final class DpGdProtocol implements ConfiguredProtocol<DpGdConfig> {
    /** Whoever receives each step's noisy gradient sum: a parameter server, or an eavesdropper on it. */
    static final ObserverDeclaration GRADIENT = new ObserverDeclaration("gradient",
            "the model of each step and the noisy sum of its batch's clipped gradients",
            "knows the model, C, z and the batch (all public), not the clip factor of an example");

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
        return "DP gradient descent on cyclic batches (a protocol registered from outside the library)";
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
    public List<ObserverDeclaration> observers() {
        return List.of(GRADIENT);
    }

    @Override
    public List<RunOption<?>> options() {
        return List.of(SEED, ROUNDS, LEARNING_RATE, BATCH_SIZE, CLIP, EPSILON, NOISE_MULTIPLIER, DELTA, EPSILON_BUDGET, NOISE);
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

    /** The one description of a run: read and checked here, read by {@link #create} and {@link #plannedLedger}. */
    @Override
    public DpGdConfig config(RunSettings s, RunInputs inputs) {
        return DpGdConfig.of(s, inputs.train().size());
    }

    @Override
    public TrainingRun create(DpGdConfig config, RunInputs inputs, RunSettings recorded) {
        return new DpGdRun(inputs.model().build(new Sgd(1.0), 0.0, config.seed()), inputs.train(), config,
                recorded != null ? recorded : RunSettings.empty());
    }

    /** T steps of the config's mechanism, from the settings and the size of the training set: nothing is built. */
    @Override
    public Optional<PlannedLedger> plannedLedger(DpGdConfig config, RunInputs inputs) {
        return Optional.of(config.plannedLedger());
    }
}
