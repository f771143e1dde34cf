package org.dpdl4j.data.catalog;

/** How the rows of a catalog file are counted. */
public enum RowCounting {
    /** The item count in the header of an IDX file (MNIST images or labels). */
    IDX_ITEMS,
    /** Non-empty text lines (LIBSVM, CSV without header). */
    TEXT_LINES,
    /** Non-empty text lines minus the header line. */
    CSV_WITH_HEADER
}
