package org.dpdl4j.runtime;

import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * A training protocol as the registry knows it: its name, what it is, the options it reads, and how it builds a
 * run from settings. Everything that lists or checks algorithms (the command line's algorithm list, its help, the
 * rejection of options the chosen algorithm does not read, the attack observers, the experiments) asks the
 * {@link ProtocolRegistry}, so a new protocol is one package and one registry line (a
 * {@link ProtocolProvider} listed in {@code META-INF/services/org.dpdl4j.runtime.ProtocolProvider}).
 */
public interface Protocol {

    /** The name, e.g. {@code decor}: lower-case words joined by '-'. */
    String name();

    /** The family it belongs to, e.g. {@code decentralized}, for grouping in help. */
    String family();

    /** One line for help: what the protocol does. */
    String summary();

    /** Whether it adds noise and keeps a privacy ledger. */
    boolean isPrivate();

    /**
     * Whether its parties compute independently within a step and exchange only the protocol's messages, so that an
     * engine other than {@code local} may split them into blocks that run elsewhere: then every run it creates is an
     * {@link org.dpdl4j.runtime.engine.DistributableRun} (checked when a run is placed). Engines read this declaration
     * to say which protocols they run.
     */
    default boolean splitsIntoBlocks() {
        return false;
    }

    /**
     * Whether its analysis assumes a convex loss, so that a caller choosing a default model picks a convex one
     * (softmax or logistic regression) rather than an MLP.
     */
    default boolean prefersConvexModel() {
        return false;
    }

    /**
     * Workload settings the protocol prefers when the user gives none, by option name (e.g. {@code model} ->
     * {@code least-squares}, {@code pixels} -> {@code unit}); the caller that resolves the workload applies them.
     */
    default java.util.Map<String, String> workloadDefaults() {
        return java.util.Map.of();
    }

    /**
     * The adversary positions around the protocol (a server, an eavesdropper, a neighbour, an observer of the
     * average model), in the order attack reports list them; empty when none is declared. The attack campaign
     * attacks exactly these: with the attacks module's own tapped run of the protocol when it has one, otherwise
     * through the releases its run hands out as an {@link ObservableRun}.
     */
    default List<ObserverDeclaration> observers() {
        return List.of();
    }

    /**
     * The options it reads, beyond the data set and model (which the caller resolves into {@link RunInputs}).
     * Giving any other option with this protocol is an error.
     */
    List<RunOption<?>> options();

    /**
     * What a run of these settings and inputs will hold in memory at its largest (see {@link MemoryEstimate}), worked out
     * from the settings and the sizes of the inputs before anything large is allocated: the network is described by
     * {@link ModelBuilder#footprint()}, not built. Callers check it with {@link MemoryCheck} before {@link #create} and
     * before they write any file. It does not refuse settings; {@link #create} does.
     *
     * @param settings the resolved settings, as {@link #create} gets them
     * @param inputs   the initial model and the training data
     */
    MemoryEstimate memory(RunSettings settings, RunInputs inputs);

    /**
     * Builds a run.
     *
     * @param settings the resolved settings; only options from {@link #options()}
     * @param inputs   the initial model and the training data
     * @throws org.dpdl4j.runtime.options.InvalidOptionException naming a setting that is missing or impossible
     */
    TrainingRun create(RunSettings settings, RunInputs inputs);

    /**
     * What {@code create(settings, inputs).plannedLedger()} would return, with the neighbouring relation of that run's
     * accounting ({@code ledger().accounting().relation()}), worked out from the settings and the sizes of the inputs
     * without building the run: no model is initialised, no noise stream opened, nothing trained. Tuning
     * prices its candidates from it. The settings are checked as {@link #create} checks them, with the same errors,
     * except for what only the built model can tell (a model the protocol cannot train). The data's values are read
     * only where the run's own set-up reads them before training: a split that follows the labels (a Dirichlet
     * partition decides each party's size from them), or constants a protocol derives from the data.
     *
     * <p>Empty for a protocol without a guarantee, or one that cannot tell its spend in advance (the default).
     *
     * @param settings the resolved settings, as {@link #create} gets them
     * @param inputs   the initial model (only its configuration is read) and the training data
     * @throws org.dpdl4j.runtime.options.InvalidOptionException naming a setting that is missing or impossible
     */
    default Optional<PlannedLedger> plannedLedger(RunSettings settings, RunInputs inputs) {
        return Optional.empty();
    }
}
