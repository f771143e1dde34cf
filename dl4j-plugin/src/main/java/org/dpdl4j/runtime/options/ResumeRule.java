package org.dpdl4j.runtime.options;

/** What changing a setting between a run and its resume means. */
public enum ResumeRule {
    /** Changes nothing the ledger or the saved state depends on (how often to evaluate, where to write): allowed. */
    FREE,
    /**
     * Changes the private mechanism (target, rounds, clip, noise, graph, partition, sampling, noise source): refused
     * unless the user explicitly continues under new settings, and then the old and new applications compose in the
     * ledger.
     */
    MECHANISM,
    /**
     * Changes what the saved state or its ledger means (data set, model, number of parties, protocol, seed; the adversary
     * the ledger's epsilon holds against, or a mode the ledger does not cover): always refused. Rounds priced against one
     * adversary do not compose with rounds priced against another into a bound against either.
     */
    IDENTITY
}
