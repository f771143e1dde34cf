package org.dpdl4j.data.catalog;

import java.net.URI;
import java.util.Objects;

/**
 * What fetching one file did.
 *
 * @param relativePath     the catalog file
 * @param outcome          whether it was already there, downloaded, or resumed
 * @param source           where it was (or would have been) downloaded from
 * @param bytesTransferred bytes received in this call
 */
public record FetchResult(String relativePath, Outcome outcome, URI source, long bytesTransferred) {
    /** What happened to a file. */
    public enum Outcome {
        /** The file was present and verified; nothing was downloaded. */
        ALREADY_VERIFIED,
        /** The file was downloaded from the start and verified. */
        DOWNLOADED,
        /** An interrupted download was continued with an HTTP Range request and verified. */
        RESUMED
    }

    public FetchResult {
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(source, "source");
    }
}
