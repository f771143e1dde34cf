package org.dpdl4j.experiments.tuning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dpdl4j.experiments.workload.Workload;
import org.dpdl4j.experiments.workload.WorkloadDefaults;
import org.dpdl4j.experiments.workload.WorkloadOptions;
import org.dpdl4j.experiments.workload.Workloads;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * How one candidate's run is built: the fixed settings, overridden by the candidate's values (protocol options, or
 * the network's hidden layers and activation), the workload's defaults for what is still missing, and the candidate's
 * seed ({@link PoolSampler}), on the training part of the held-out split.
 */
final class CandidateSetup {
    private static final List<RunOption<?>> NETWORK = List.of(WorkloadOptions.HIDDEN, WorkloadOptions.ACTIVATION);

    private final Protocol protocol;
    private final RunSettings fixed;
    private final RunSettings workloadSettings;
    private final Workload training;
    private final Map<String, RunOption<?>> byName = new LinkedHashMap<>();

    /**
     * @param fixed            the protocol's settings that every candidate shares
     * @param workloadSettings the workload options given (for the network's architecture)
     * @param training         the workload without its validation examples
     * @param space            the search space, whose every option is checked here
     */
    CandidateSetup(Protocol protocol, RunSettings fixed, RunSettings workloadSettings, Workload training, SearchSpace space) {
        this.protocol = protocol;
        this.fixed = fixed;
        this.workloadSettings = workloadSettings;
        this.training = training;
        protocol.options().forEach(o -> byName.put(o.name(), o));
        NETWORK.forEach(o -> byName.put(o.name(), o));
        for (String option : space.options()) {
            if (!byName.containsKey(option)) {
                throw new IllegalArgumentException("search space: " + protocol.name() + " does not read --" + option
                        + "; it can tune " + String.join(", ", byName.keySet().stream()
                        .filter(n -> !n.equals(RunOptions.SEED.name())).toList()));
            }
            if (option.equals(RunOptions.SEED.name())) {
                throw new IllegalArgumentException("search space: --seed is not a hyperparameter (every candidate runs with the"
                        + " tuning's seed, or with reproducible noise with one drawn for it)");
            }
            if (fixed.has(byName.get(option))) {
                throw new IllegalArgumentException("--" + option + " is both fixed and searched; drop it from the command or"
                        + " from the search space");
            }
        }
    }

    private CandidateSetup(CandidateSetup base, RunSettings fixed) {
        this.protocol = base.protocol;
        this.fixed = fixed;
        this.workloadSettings = base.workloadSettings;
        this.training = base.training;
        this.byName.putAll(base.byName);
    }

    /** The accountant every candidate is calibrated and priced by (its fixed {@code --accountant}, else the default). */
    AccountantFactory accountants() {
        return RunOptions.accountants(fixed);
    }

    /** The same setup with one more fixed setting (the calibrated per-candidate epsilon). */
    <T> CandidateSetup withFixed(RunOption<T> option, T value) {
        return new CandidateSetup(this, fixed.with(option, value));
    }

    /** The protocol settings of a candidate: fixed, then its values, then the workload's defaults, with its seed. */
    RunSettings settings(Map<String, String> values, long seed) {
        RunSettings s = fixed;
        for (Map.Entry<String, String> e : values.entrySet()) {
            RunOption<?> o = byName.get(e.getKey());
            if (!NETWORK.contains(o)) {
                s = s.withText(o, e.getValue());
            }
        }
        s = s.with(RunOptions.SEED, seed);
        return WorkloadDefaults.apply(s, protocol, training.name(), training.train().size());
    }

    /** The workload of a candidate: the training data with the network its values choose. */
    Workload workload(Map<String, String> values) {
        RunSettings w = workloadSettings;
        for (RunOption<?> o : NETWORK) {
            if (values.containsKey(o.name())) {
                w = w.withText(o, values.get(o.name()));
            }
        }
        return Workloads.withArchitecture(training, w);
    }

    /**
     * What a candidate's run would spend, priced from its settings and the data sizes without building it (see
     * {@link Protocol#plannedLedger}); empty when the protocol cannot tell in advance.
     *
     * @throws IllegalArgumentException when the candidate's settings do not make a run
     */
    Optional<PlannedLedger> plannedLedger(Map<String, String> values, long seed) {
        return protocol.plannedLedger(settings(values, seed), workload(values).inputs());
    }

    /** A candidate's run, built (noise calibrated, model initialised) but not trained, once its memory is known to fit. */
    TrainingRun build(Map<String, String> values, long seed) {
        RunSettings s = settings(values, seed);
        RunInputs inputs = workload(values).inputs();
        MemoryCheck.require(protocol.memory(s, inputs));
        return protocol.create(s, inputs);
    }

    Workload training() {
        return training;
    }
}
