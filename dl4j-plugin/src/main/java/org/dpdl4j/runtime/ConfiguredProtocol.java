package org.dpdl4j.runtime;

import java.util.Optional;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * A protocol whose runs are described by one typed value, {@code C}: the settings are parsed and checked into it
 * once ({@link #config}), and building ({@link #create(Object, RunInputs, RunSettings)}) and pricing
 * ({@link #plannedLedger(Object, RunInputs)}) read only it. Java callers (reproductions, attack scenarios,
 * benchmarks) make the same value without settings and go through the same two methods, so a run has one
 * description however it was asked for.
 *
 * @param <C> the protocol's description of a run
 */
public interface ConfiguredProtocol<C> extends Protocol {

    /**
     * The description of a run of these settings and inputs, every setting checked.
     *
     * @throws org.dpdl4j.runtime.options.InvalidOptionException naming a setting that is missing or impossible
     */
    C config(RunSettings settings, RunInputs inputs);

    /**
     * Builds the run {@code config} describes.
     *
     * @param recorded the settings the run records for its checkpoint and resume checks, or null for those the
     *                 description gives back
     */
    TrainingRun create(C config, RunInputs inputs, RunSettings recorded);

    /** What {@link #create(Object, RunInputs, RunSettings)}'s run will spend, priced without building it. */
    Optional<PlannedLedger> plannedLedger(C config, RunInputs inputs);

    /**
     * Refuses a description made by another protocol of the same family (a family shares one description type).
     *
     * @param describedProtocol the name of the protocol the description is of
     */
    default void requireOwn(String describedProtocol) {
        if (!describedProtocol.equals(name())) {
            throw new IllegalArgumentException("a description of a " + describedProtocol + " run given to " + name()
                    + "; give it to " + describedProtocol);
        }
    }

    @Override
    default TrainingRun create(RunSettings settings, RunInputs inputs) {
        return create(config(settings, inputs), inputs, settings);
    }

    @Override
    default Optional<PlannedLedger> plannedLedger(RunSettings settings, RunInputs inputs) {
        return plannedLedger(config(settings, inputs), inputs);
    }
}
