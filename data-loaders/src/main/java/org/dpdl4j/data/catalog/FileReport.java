package org.dpdl4j.data.catalog;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The state of one file of a catalog data set.
 *
 * @param dataset      the data set's name
 * @param relativePath the file's path in the data directory
 * @param status       verified, MISMATCH, missing, UNUSABLE or present unverified
 * @param rows         the rows counted in the file, when it was present and readable
 * @param expectedRows the catalog's row count, when known
 * @param detail       extra information: the hashes of a mismatch, why rows could not be counted, ...
 *                     (empty when there is nothing to add)
 */
public record FileReport(String dataset, String relativePath, FileStatus status, OptionalLong rows,
        OptionalLong expectedRows, String detail) {
    public FileReport {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(expectedRows, "expectedRows");
        Objects.requireNonNull(detail, "detail");
    }
}
