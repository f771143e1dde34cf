package org.dpdl4j.attacks.testprotocol;

import static org.dpdl4j.runtime.options.RunOptions.BATCH_SIZE;
import static org.dpdl4j.runtime.options.RunOptions.LEARNING_RATE;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;
import static org.dpdl4j.runtime.options.RunOptions.SEED;

import java.util.List;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * {@code cyclic-sgd}: plain SGD over the training set in a seeded order, a batch of consecutive examples per step.
 * A protocol the attacks module knows nothing about, registered from the test sources by one line, that declares
 * one observer (the receiver of each update) and hands it the updates through {@code ObservableRun}.
 */
public final class CyclicSgdProtocol implements Protocol {
    static final String NAME = "cyclic-sgd";
    /** Examples per step when --batch-size is not given. */
    static final long DEFAULT_BATCH = 2;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String family() {
        return "test";
    }

    @Override
    public String summary() {
        return "plain SGD over the examples in a seeded cyclic order (a protocol registered by the tests)";
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    @Override
    public List<ObserverDeclaration> observers() {
        return List.of(new ObserverDeclaration(CyclicSgdRun.OBSERVER, "the model before and after each step",
                "knows the learning rate and the batch size"));
    }

    @Override
    public List<RunOption<?>> options() {
        return List.of(SEED, ROUNDS, BATCH_SIZE, LEARNING_RATE);
    }

    @Override
    public MemoryEstimate memory(RunSettings s, RunInputs inputs) {
        ModelFootprint m = inputs.model().footprint();
        return MemoryEstimate.of(name() + " with " + m.describe())
                .arrays("the model and its update", 2, m.parameters(), m.valueBytes()).fix("a smaller model").build();
    }

    @Override
    public TrainingRun create(RunSettings s, RunInputs inputs) {
        long seed = s.get(SEED, 1L);
        return new CyclicSgdRun(inputs.model().build(new Sgd(1.0), 0.0, seed), inputs.train(),
                s.require(ROUNDS, NAME + " needs --rounds"), s.get(BATCH_SIZE, DEFAULT_BATCH),
                s.require(LEARNING_RATE, NAME + " needs --lr"), seed, s);
    }
}
