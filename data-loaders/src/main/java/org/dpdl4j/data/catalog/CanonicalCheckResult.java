package org.dpdl4j.data.catalog;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link CanonicalDataCheck} found for the files of one data set.
 *
 * @param dataset      the catalog name of the data set ({@code covtype-93k} for the train command's {@code covtype})
 * @param files        one verdict per file the data set reads, in catalog order
 * @param warnings     one line per file that is not known to be canonical (a mismatch, or no hash
 *                     to check against), naming the file, the expected and actual hashes and the
 *                     fix; the caller prints them under {@link CanonicalDataCheck.Policy#WARN}
 * @param cacheWarning why the cache of earlier checks was ignored or not written, if it was (also
 *                     logged once at WARN level); the check itself is not affected
 */
public record CanonicalCheckResult(String dataset, List<FileVerdict> files, List<String> warnings,
        Optional<String> cacheWarning) {
    public CanonicalCheckResult {
        Objects.requireNonNull(dataset, "dataset");
        files = List.copyOf(files);
        warnings = List.copyOf(warnings);
        Objects.requireNonNull(cacheWarning, "cacheWarning");
    }

    /** Whether every file matches the catalog's SHA-256. */
    public boolean allCanonical() {
        return files.stream().allMatch(f -> f.verdict() == FileVerdict.Verdict.MATCHES);
    }

    /** The files whose hash differs from the catalog's. */
    public List<FileVerdict> mismatches() {
        return files.stream().filter(f -> f.verdict() == FileVerdict.Verdict.MISMATCH).toList();
    }
}
