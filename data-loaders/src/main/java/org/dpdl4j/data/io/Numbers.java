package org.dpdl4j.data.io;

/**
 * Strict parsing of decimal numbers in text data files.
 *
 * <p>{@link Double#parseDouble} also accepts hexadecimal floats, type suffixes ("1f", "2d"),
 * "NaN" and "Infinity"; none of these belong in a data file, and a NaN feature would silently
 * poison training, so only plain decimal notation ({@code -1}, {@code +0.5}, {@code 3e-2}) passes.
 */
public final class Numbers {
    private Numbers() {
    }

    /**
     * The finite value of a plain decimal number.
     *
     * @throws NumberFormatException when the text is not a plain decimal number
     */
    public static double parseDecimal(CharSequence text, int start, int end) {
        if (start >= end) {
            throw new NumberFormatException("empty");
        }
        boolean digit = false;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
                throw new NumberFormatException(text.subSequence(start, end).toString());
            }
        }
        if (!digit) {
            throw new NumberFormatException(text.subSequence(start, end).toString());
        }
        double v = Double.parseDouble(text.subSequence(start, end).toString());
        if (!Double.isFinite(v)) {
            throw new NumberFormatException("overflow: " + text.subSequence(start, end));
        }
        return v;
    }

    /** {@link #parseDecimal(CharSequence, int, int)} over the whole text. */
    public static double parseDecimal(CharSequence text) {
        return parseDecimal(text, 0, text.length());
    }

    /**
     * The value of a decimal integer made of digits with an optional sign.
     *
     * @throws NumberFormatException when the text is not such an integer or does not fit an int
     */
    public static int parseInt(CharSequence text, int start, int end) {
        return Integer.parseInt(text, start, end, 10);
    }
}
