package org.dpdl4j.data.catalog;

import java.io.IOException;

/** A downloaded or stored file does not have the SHA-256 the catalog expects. */
public final class ChecksumMismatchException extends IOException {
    private final String relativePath;
    private final String expectedSha256;
    private final String actualSha256;

    /**
     * @param relativePath the catalog file
     * @param expected     the expected SHA-256
     * @param actual       the SHA-256 found
     * @param message      the full message (what, hashes, what was deleted, what to do)
     */
    public ChecksumMismatchException(String relativePath, String expected, String actual, String message) {
        super(message);
        this.relativePath = relativePath;
        this.expectedSha256 = expected;
        this.actualSha256 = actual;
    }

    /** The catalog file concerned. */
    public String relativePath() {
        return relativePath;
    }

    /** The SHA-256 the catalog expects (of the stored bytes). */
    public String expectedSha256() {
        return expectedSha256;
    }

    /** The SHA-256 that was found. */
    public String actualSha256() {
        return actualSha256;
    }
}
