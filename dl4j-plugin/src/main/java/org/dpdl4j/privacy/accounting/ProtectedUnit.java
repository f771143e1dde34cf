package org.dpdl4j.privacy.accounting;

/** What one neighbouring change adds, removes or replaces: the unit a guarantee protects. */
public enum ProtectedUnit {
    /** One training example (record-level privacy). */
    EXAMPLE("one training example"),
    /** All the data of one user, client or node (user-level privacy). */
    USER("all the data of one user");

    private final String description;

    ProtectedUnit(String description) {
        this.description = description;
    }

    /** A phrase for statements, e.g. "one training example". */
    public String description() {
        return description;
    }
}
