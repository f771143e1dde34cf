package org.dpdl4j.runtime;

import java.util.Objects;

/**
 * What a resume may change.
 *
 * @param allowMechanismChanges whether settings that change the private mechanism may differ from the saved run's;
 *                              the old and the new applications then compose in the ledger
 * @param howToAllow            how the user allows them, for the refusal message (e.g. a command-line option)
 * @param settingPrefix         how messages name a setting before its name: {@code ""} from Java ({@code rounds}),
 *                              {@code "--"} on the command line ({@code --rounds})
 */
public record ResumePolicy(boolean allowMechanismChanges, String howToAllow, String settingPrefix) {
    public ResumePolicy {
        Objects.requireNonNull(howToAllow, "howToAllow");
        Objects.requireNonNull(settingPrefix, "settingPrefix");
    }

    /** A policy whose messages name settings as they are named in Java. */
    public ResumePolicy(boolean allowMechanismChanges, String howToAllow) {
        this(allowMechanismChanges, howToAllow, "");
    }

    /** The policy of a command line: settings named as its options ({@code --rounds}), changes allowed by an option. */
    public static ResumePolicy commandLine(boolean allowMechanismChanges, String howToAllow) {
        return new ResumePolicy(allowMechanismChanges, howToAllow, "--");
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
