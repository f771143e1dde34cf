package org.dpdl4j.data.io;

/**
 * Strict parsing of decimal numbers in text data files.
 *
 * <p>{@link Double#parseDouble} also accepts hexadecimal floats, type suffixes ("1f", "2d"),
 * "NaN" and "Infinity"; none of these belong in a data file, and a NaN feature would silently
 * poison training, so only plain decimal notation ({@code -1}, {@code +0.5}, {@code 3e-2}) passes.
 * A value must also fit the type it is stored in: {@code 1e39} is a finite double but becomes
 * infinity as a float. Values that underflow to zero ({@code 1e-50} as a float) are accepted: zero
 * is the closest float, and no information that training could use is lost.
 */
public final class Numbers {
    private Numbers() {
    }

    /** Why a text is not an acceptable number: a phrase that follows the value, and how to fix it. */
    public enum Problem {
        /** Not plain decimal notation. */
        NOT_A_NUMBER("is not a number", "write plain decimal numbers such as -1, 0.5 or 3e-2"),
        /** NaN or an infinity, spelled out. */
        NOT_FINITE("is not finite (NaN and infinities are not allowed: one such value makes the trained model NaN)",
                "replace it with a finite number, or remove the example if the value is unknown"),
        /** Finite as written, but too large for a 32-bit float: it would be stored as infinity. */
        OVERFLOWS_FLOAT("overflows 32-bit float (|x| > 3.4028235e38), so it would be stored as infinity",
                "scale the feature down (for example standardise it) so that every value fits a 32-bit float, "
                        + "or correct the value if it is a typo"),
        /** Finite as written, but too large even for a 64-bit double. */
        OVERFLOWS_DOUBLE("overflows 64-bit double (|x| > 1.7976931348623157e308)", "correct the value");

        private final String phrase;
        private final String fix;

        Problem(String phrase, String fix) {
            this.phrase = phrase;
            this.fix = fix;
        }

        /** What is wrong, as a predicate of the value: "is not a number". */
        public String phrase() {
            return phrase;
        }

        /** What the user can do about it. */
        public String fix() {
            return fix;
        }
    }

    /** A text that is not an acceptable number, with the {@link Problem}. */
    public static final class InvalidNumberException extends NumberFormatException {
        private final Problem problem;
        private final String text;

        InvalidNumberException(String text, Problem problem) {
            super("\"" + text + "\" " + problem.phrase());
            this.text = text;
            this.problem = problem;
        }

        /** The offending text. */
        public String text() {
            return text;
        }

        /** What is wrong with it. */
        public Problem problem() {
            return problem;
        }
    }

    /**
     * The finite double value of a plain decimal number.
     *
     * @throws InvalidNumberException when the text is not a plain decimal number, spells NaN or an
     *                                infinity, or overflows a double
     */
    public static double parseDecimal(CharSequence text, int start, int end) {
        String s = checkedDecimal(text, start, end);
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new InvalidNumberException(s, Problem.NOT_A_NUMBER);
        }
        if (Double.isInfinite(v)) {
            throw new InvalidNumberException(s, Problem.OVERFLOWS_DOUBLE);
        }
        return v;
    }

    /** {@link #parseDecimal(CharSequence, int, int)} over the whole text. */
    public static double parseDecimal(CharSequence text) {
        return parseDecimal(text, 0, text.length());
    }

    /**
     * The finite float value of a plain decimal number, rounded once from the text (not through a
     * double, which could round twice).
     *
     * @throws InvalidNumberException as {@link #parseDecimal(CharSequence, int, int)}, and when the
     *                                value overflows a float
     */
    public static float parseFloat32(CharSequence text, int start, int end) {
        String s = checkedDecimal(text, start, end);
        float v;
        try {
            v = Float.parseFloat(s);
        } catch (NumberFormatException e) {
            throw new InvalidNumberException(s, Problem.NOT_A_NUMBER);
        }
        if (Float.isInfinite(v)) {
            throw new InvalidNumberException(s, Problem.OVERFLOWS_FLOAT);
        }
        return v;
    }

    /** {@link #parseFloat32(CharSequence, int, int)} over the whole text. */
    public static float parseFloat32(CharSequence text) {
        return parseFloat32(text, 0, text.length());
    }

    /**
     * The value of a decimal integer made of digits with an optional sign.
     *
     * @throws NumberFormatException when the text is not such an integer or does not fit an int
     */
    public static int parseInt(CharSequence text, int start, int end) {
        return Integer.parseInt(text, start, end, 10);
    }

    /** The text, once it holds only digits, signs, points and exponent marks (Java's parsers still reject "1.2.3"). */
    private static String checkedDecimal(CharSequence text, int start, int end) {
        String s = text.subSequence(start, end).toString();
        boolean digit = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
                throw new InvalidNumberException(s, spellsNonFinite(s) ? Problem.NOT_FINITE : Problem.NOT_A_NUMBER);
            }
        }
        if (!digit) {
            throw new InvalidNumberException(s, Problem.NOT_A_NUMBER);
        }
        return s;
    }

    /** NaN, inf or infinity in any case, with an optional sign: what numeric tools write for non-finite values. */
    private static boolean spellsNonFinite(String s) {
        String t = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
        return t.equalsIgnoreCase("nan") || t.equalsIgnoreCase("inf") || t.equalsIgnoreCase("infinity");
    }
}
