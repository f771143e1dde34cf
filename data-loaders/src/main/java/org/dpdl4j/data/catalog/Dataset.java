package org.dpdl4j.data.catalog;

import java.util.List;
import java.util.Objects;

/**
 * A data set whose files have known SHA-256 hashes and can be fetched and verified.
 *
 * @param name        the short name ({@code mnist}, {@code a9a}, ...)
 * @param description one line about it
 * @param files       its files
 * @param citation    how to cite it
 */
public record Dataset(String name, String description, List<KnownFile> files, String citation)
        implements CatalogEntry {
    public Dataset {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(citation, "citation");
        files = List.copyOf(files);
        if (files.isEmpty()) {
            throw new IllegalArgumentException("data set " + name + " needs at least one file");
        }
    }
}
