package org.dpdl4j.data;

/** How integer class labels become the label matrix of a DL4J {@code DataSet}. */
public enum LabelEncoding {
    /** An n x k matrix with a single 1 per row, at the column of the class. */
    ONE_HOT,
    /**
     * An n x 1 column of 0 and 1 (the class index itself), for a single sigmoid output with binary
     * cross-entropy. Only valid for data with exactly two classes.
     */
    BINARY
}
