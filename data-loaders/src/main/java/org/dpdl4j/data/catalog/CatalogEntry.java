package org.dpdl4j.data.catalog;

/** A data set the catalog knows about: one with verified files, or one users provide themselves. */
public sealed interface CatalogEntry permits Dataset, UserProvidedDataset {
    /** The short name used on the command line ({@code mnist}). */
    String name();

    /** One line describing the data set. */
    String description();

    /** How to cite it. */
    String citation();
}
