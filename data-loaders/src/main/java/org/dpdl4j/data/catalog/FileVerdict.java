package org.dpdl4j.data.catalog;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Whether one data file is the catalog's canonical file.
 *
 * @param relativePath   the file's path in the data directory ({@code a9a/a9a.gz})
 * @param path           its absolute path
 * @param verdict        MATCHES, MISMATCH or NOT_CANONICAL
 * @param expectedSha256 the catalog's SHA-256 of the stored bytes, or {@code null} for NOT_CANONICAL
 * @param actualSha256   the file's SHA-256 of the stored bytes, or {@code null} for NOT_CANONICAL
 * @param detail         the hashes of a mismatch (bytes and decompressed content), how a match was
 *                       found, or why there is no hash; never {@code null}
 * @param cached         whether the verdict came from the cache of earlier checks instead of hashing
 */
public record FileVerdict(String relativePath, Path path, Verdict verdict, String expectedSha256, String actualSha256,
        String detail, boolean cached) {

    /** What a check found. */
    public enum Verdict {
        /** The stored bytes, or the decompressed content, have the catalog's SHA-256. */
        MATCHES,
        /** Neither hash is the catalog's: a damaged copy or a different file. */
        MISMATCH,
        /** The catalog knows no SHA-256 for the file (a user-provided data set), so it cannot be checked. */
        NOT_CANONICAL
    }

    public FileVerdict {
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(detail, "detail");
    }

    /** The verdict of a file compared with its catalog entry. */
    static FileVerdict of(KnownFile known, Path path, HashCheck check, boolean cached) {
        if (check.matches()) {
            String how = check.byContent() ? "content verified (the gzip bytes differ from the reference copy)" : "";
            return new FileVerdict(known.relativePath(), path, Verdict.MATCHES, known.sha256(), check.actualSha256(), how,
                    cached);
        }
        return new FileVerdict(known.relativePath(), path, Verdict.MISMATCH, known.sha256(), check.actualSha256(),
                check.describeMismatch(known), cached);
    }

    /** The verdict of a file the catalog has no hash for. */
    static FileVerdict notCanonical(String relativePath, Path path, String dataset) {
        return new FileVerdict(relativePath, path, Verdict.NOT_CANONICAL, null, null,
                "the catalog has no SHA-256 for data set " + dataset + ", so this file cannot be checked", false);
    }
}
