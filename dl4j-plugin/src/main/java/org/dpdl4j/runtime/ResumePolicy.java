package org.dpdl4j.runtime;

import java.util.Objects;

/**
 * What a resume may change.
 *
 * @param allowMechanismChanges whether settings that change the private mechanism may differ from the saved run's;
 *                              the old and the new applications then compose in the ledger
 * @param howToAllow            how the user allows them, for the refusal message (e.g. a command-line option)
 */
public record ResumePolicy(boolean allowMechanismChanges, String howToAllow) {
    public ResumePolicy {
        Objects.requireNonNull(howToAllow, "howToAllow");
    }

    /** Refuse every change of the mechanism. */
    public static ResumePolicy strict() {
        return new ResumePolicy(false, "resume with ResumePolicy.allowingChanges()");
    }

    /** Continue under changed settings; the ledger composes both segments. */
    public static ResumePolicy allowingChanges() {
        return new ResumePolicy(true, "");
    }
}
