package org.dpdl4j.data.catalog;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import org.dpdl4j.data.io.Sha256;

/**
 * A file of a catalog data set whose exact content is known.
 *
 * @param relativePath   its path inside the data directory, '/'-separated ({@code a9a/a9a.gz})
 * @param sha256         SHA-256 of the stored bytes
 * @param contentSha256  SHA-256 of the decompressed content, or {@code null} when unknown; a stored
 *                       file whose own hash differs (gzip output varies between compressors) but
 *                       whose content has this hash is still verified
 * @param expectedRows   the number of rows (examples) it holds
 * @param sources        its public download addresses, tried in this order until one serves the file
 * @param sourceEncoding what those addresses serve (all the same bytes)
 * @param rowCounting    how its rows are counted
 */
public record KnownFile(String relativePath, String sha256, String contentSha256, long expectedRows, List<URI> sources,
        SourceEncoding sourceEncoding, RowCounting rowCounting) {

    public KnownFile {
        Objects.requireNonNull(relativePath, "relativePath");
        sources = List.copyOf(Objects.requireNonNull(sources, "sources"));
        if (sources.isEmpty()) {
            throw new IllegalArgumentException(relativePath + ": give at least one download address");
        }
        Objects.requireNonNull(sourceEncoding, "sourceEncoding");
        Objects.requireNonNull(rowCounting, "rowCounting");
        if (!Sha256.isHexDigest(sha256)) {
            throw new IllegalArgumentException(relativePath + ": the SHA-256 of the stored bytes must be 64 lower-case hex digits, got "
                    + sha256);
        }
        if (contentSha256 != null && !Sha256.isHexDigest(contentSha256)) {
            throw new IllegalArgumentException(relativePath + ": the SHA-256 of the decompressed content must be 64 lower-case hex "
                    + "digits (or null when unknown), got "
                    + contentSha256);
        }
        if (sourceEncoding == SourceEncoding.PLAIN_TEXT && contentSha256 == null) {
            throw new IllegalArgumentException(relativePath + ": a source that serves plain text needs the content "
                    + "SHA-256 to check the download");
        }
        if (expectedRows < 1) {
            throw new IllegalArgumentException(relativePath + ": the expected number of rows must be at least 1, got "
                    + expectedRows);
        }
    }

    /** A file with one download address. */
    public KnownFile(String relativePath, String sha256, String contentSha256, long expectedRows, URI source,
            SourceEncoding sourceEncoding, RowCounting rowCounting) {
        this(relativePath, sha256, contentSha256, expectedRows, List.of(Objects.requireNonNull(source, "source")),
                sourceEncoding, rowCounting);
    }
}
