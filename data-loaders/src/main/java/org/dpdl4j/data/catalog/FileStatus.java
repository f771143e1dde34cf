package org.dpdl4j.data.catalog;

/** The state of one data file in the data directory. */
public enum FileStatus {
    /** Present, and its SHA-256 (of the bytes or of the decompressed content) is the catalog's. */
    VERIFIED("verified"),
    /** Present, but neither hash matches: the file is damaged or a different file. */
    MISMATCH("MISMATCH"),
    /** Not in the data directory. */
    MISSING("missing"),
    /** Something is in the file's place but cannot be read: a directory, or a file without read permission. */
    UNUSABLE("UNUSABLE"),
    /** Present, but the catalog knows no hash for it (user-provided files). */
    PRESENT_UNVERIFIED("present, unverified (no known hash)");

    private final String label;

    FileStatus(String label) {
        this.label = label;
    }

    /** How the status is printed. */
    public String label() {
        return label;
    }
}
