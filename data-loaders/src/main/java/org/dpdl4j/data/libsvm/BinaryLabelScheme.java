package org.dpdl4j.data.libsvm;

/**
 * How the two label values of a binary LIBSVM file map to the classes {0, 1}. Any other label
 * value is an error: a file with an unexpected scheme is rejected instead of mislabelled.
 */
public enum BinaryLabelScheme {
    /** {@code -1 -> 0}, {@code +1 -> 1} (a9a and most LIBSVM binary sets). */
    PLUS_MINUS_ONE(-1, 1),
    /**
     * {@code 1 -> 0}, {@code 2 -> 1} (covtype.binary: label 2 is the cover type 2, Lodgepole Pine,
     * label 1 all other cover types, so class 1 means "cover type 2").
     */
    ONE_TWO(1, 2),
    /** {@code 0 -> 0}, {@code 1 -> 1}. */
    ZERO_ONE(0, 1);

    private final double negative;
    private final double positive;

    BinaryLabelScheme(double negative, double positive) {
        this.negative = negative;
        this.positive = positive;
    }

    /** The class (0 or 1) of a raw label value, or -1 when the value is not one of the scheme's two. */
    public int classOf(double label) {
        if (label == positive) {
            return 1;
        }
        if (label == negative) {
            return 0;
        }
        return -1;
    }

    /** A readable form of the mapping, for messages: "-1 -> class 0, +1 -> class 1". */
    public String describe() {
        return format(negative) + " -> class 0, " + format(positive) + " -> class 1";
    }

    /** The two label values, for messages: "-1 or +1". */
    public String labelValues() {
        return format(negative) + " or " + format(positive);
    }

    private String format(double v) {
        String s = Long.toString((long) v);
        return this == PLUS_MINUS_ONE && v > 0 ? "+" + s : s;
    }
}
