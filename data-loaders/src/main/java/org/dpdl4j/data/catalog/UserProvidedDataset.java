package org.dpdl4j.data.catalog;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * A data set that users may place in the data directory themselves but whose hash the catalog
 * does not know, so it is reported as "present, unverified" and never fetched.
 *
 * @param name           the short name
 * @param description    one line about it
 * @param candidatePaths the relative paths it may have, in order of preference (compressed or not)
 * @param rowCounting    how its rows are counted
 * @param source         where to download it by hand
 * @param citation       how to cite it
 */
public record UserProvidedDataset(String name, String description, List<String> candidatePaths,
        RowCounting rowCounting, URI source, String citation) implements CatalogEntry {
    public UserProvidedDataset {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(rowCounting, "rowCounting");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(citation, "citation");
        candidatePaths = List.copyOf(candidatePaths);
        if (candidatePaths.isEmpty()) {
            throw new IllegalArgumentException("data set " + name + " needs at least one candidate path");
        }
    }
}
