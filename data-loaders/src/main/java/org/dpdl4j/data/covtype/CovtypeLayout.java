package org.dpdl4j.data.covtype;

/** The column layouts of the covtype files this module reads (all comma-separated). */
public enum CovtypeLayout {
    /**
     * A header row with the UCI column names, then 54 features already min-max scaled to [0, 1]
     * followed by the cover type 1..7 (the 92,962-row subset {@code covtype_scaled_subset93k.csv.gz}).
     */
    SCALED_WITH_HEADER(true, false, "a header row (Elevation,...,Cover_Type), then rows of 54 scaled features followed by"
            + " the cover type 1..7"),
    /**
     * No header; the LIBSVM covtype.binary label 1 or 2 first (2 = cover type 2, 1 = any other),
     * then 54 features scaled to [0, 1] (the 20,000-row subset
     * {@code covtype_binary_scale_subset20k.csv.gz}, sorted by label).
     */
    BINARY_LABEL_FIRST(false, true, "rows of the binary label 1 or 2 followed by 54 scaled features, without a header"),
    /**
     * No header; 54 raw integer features (elevation in metres, one-hot wilderness and soil columns,
     * ...) then the cover type 1..7: UCI's complete {@code covtype.data(.gz)}, 581,012 rows.
     */
    UCI_RAW(false, false, "rows of 54 features followed by the cover type 1..7, without a header");

    /** Number of features in every layout. */
    public static final int FEATURES = 54;
    /** Number of columns in every layout: the features and one label column. */
    public static final int COLUMNS = FEATURES + 1;

    private final boolean header;
    private final boolean labelFirst;
    private final String description;

    CovtypeLayout(boolean header, boolean labelFirst, String description) {
        this.header = header;
        this.labelFirst = labelFirst;
        this.description = description;
    }

    /** The columns in words, for messages about a file that does not have them. */
    public String describe() {
        return description;
    }

    /** Whether the first line is a header row. */
    public boolean hasHeader() {
        return header;
    }

    /** Whether the label is the first column (else the last). */
    public boolean labelFirst() {
        return labelFirst;
    }

    /** Whether the label column holds LIBSVM's binary 1 / 2 rather than the cover type 1..7. */
    public boolean binaryLabels() {
        return this == BINARY_LABEL_FIRST;
    }
}
