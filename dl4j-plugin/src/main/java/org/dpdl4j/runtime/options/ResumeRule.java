package org.dpdl4j.runtime.options;

/** What changing a setting between a run and its resume means. */
public enum ResumeRule {
    /** Changes nothing the ledger or the saved state depends on (how often to evaluate, where to write): allowed. */
    FREE,
    /**
     * Changes the private mechanism (target, rounds, clip, noise, graph, partition, sampling, noise source): refused
     * unless the user explicitly continues under new settings, and then the old and new applications compose in the
     * ledger. A protocol may fix some of them for its runs
     * ({@link org.dpdl4j.runtime.TrainingRun#settingsFixedOnResume}): the adversary, whose rounds do not compose with
     * rounds priced against another, or µ²'s batch size, which sets which examples a round uses.
     */
    MECHANISM,
    /** Changes what the saved state means (data set, model, number of parties, protocol, seed): always refused. */
    IDENTITY
}
