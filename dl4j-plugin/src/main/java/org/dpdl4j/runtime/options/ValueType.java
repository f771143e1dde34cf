package org.dpdl4j.runtime.options;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * How the text of a setting becomes a value, with the valid range stated in the user's terms. A parser throws
 * {@link IllegalArgumentException} with a sentence that completes "--name VALUE: ..." (what is wrong and the range);
 * {@link RunOption#parse} adds the option and the value.
 *
 * @param type      the value class
 * @param range     the valid values in words, e.g. "a number > 0"
 * @param parser    text to value
 * @param formatter value to canonical text (which parses back to the same value)
 */
public record ValueType<T>(Class<T> type, String range, Function<String, T> parser, Function<T, String> formatter) {
    public ValueType {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(parser, "parser");
        Objects.requireNonNull(formatter, "formatter");
    }

    /** A finite number strictly above {@code min} (and at most {@code max}, which may be +Infinity). */
    public static ValueType<Double> realAbove(double min, double max) {
        String range = "a number > " + num(min) + (Double.isInfinite(max) ? "" : " and <= " + num(max));
        return new ValueType<>(Double.class, range, t -> {
            double v = parseReal(t, range);
            if (!(v > min) || v > max) {
                throw new IllegalArgumentException("must be " + range + " (got " + t.trim() + ")");
            }
            return v;
        }, ValueType::num);
    }

    /** A finite number at least {@code min} (and at most {@code max}). */
    public static ValueType<Double> realAtLeast(double min, double max) {
        String range = "a number >= " + num(min) + (Double.isInfinite(max) ? "" : " and <= " + num(max));
        return new ValueType<>(Double.class, range, t -> {
            double v = parseReal(t, range);
            if (!(v >= min) || v > max) {
                throw new IllegalArgumentException("must be " + range + " (got " + t.trim() + ")");
            }
            return v;
        }, ValueType::num);
    }

    /** A number at least {@code min} and strictly below {@code max}. */
    public static ValueType<Double> realFrom(double min, double maxExclusive) {
        String range = "a number >= " + num(min) + " and < " + num(maxExclusive);
        return new ValueType<>(Double.class, range, t -> {
            double v = parseReal(t, range);
            if (!(v >= min && v < maxExclusive)) {
                throw new IllegalArgumentException("must be " + range + " (got " + t.trim() + ")");
            }
            return v;
        }, ValueType::num);
    }

    /**
     * Text checked by {@code check}, which returns the canonical form or throws an {@link IllegalArgumentException}
     * whose message says what is wrong (e.g. a topology name parsed by its parser).
     */
    public static ValueType<String> checked(String range, Function<String, String> check) {
        return new ValueType<>(String.class, range, t -> {
            if (t.isBlank()) {
                throw new IllegalArgumentException("is empty; give " + range);
            }
            return check.apply(t.trim());
        }, v -> v);
    }

    /** A number strictly between {@code min} and {@code max}. */
    public static ValueType<Double> realBetween(double min, double max) {
        String range = "a number strictly between " + num(min) + " and " + num(max);
        return new ValueType<>(Double.class, range, t -> {
            double v = parseReal(t, range);
            if (!(v > min && v < max)) {
                throw new IllegalArgumentException("must be " + range + " (got " + t.trim() + ")");
            }
            return v;
        }, ValueType::num);
    }

    /** A whole number in [min, max]. */
    public static ValueType<Long> integer(long min, long max) {
        String range = max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? "a whole number >= " + min
                : "a whole number from " + min + " to " + max;
        return new ValueType<>(Long.class, range, t -> {
            long v;
            try {
                v = Long.parseLong(t.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("is not a whole number; it must be " + range);
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException("must be " + range + " (got " + v + ")");
            }
            return v;
        }, v -> Long.toString(v));
    }

    /** Any whole number. */
    public static ValueType<Long> anyInteger() {
        return new ValueType<>(Long.class, "a whole number", t -> {
            try {
                return Long.parseLong(t.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("is not a whole number (between -2^63 and 2^63 - 1)");
            }
        }, v -> Long.toString(v));
    }

    /** One of the given words (case-insensitive). */
    public static ValueType<String> choice(String... choices) {
        List<String> allowed = Arrays.asList(choices);
        String range = "one of " + String.join(", ", allowed);
        return new ValueType<>(String.class, range, t -> {
            String v = t.trim().toLowerCase(Locale.ROOT);
            if (!allowed.contains(v)) {
                throw new IllegalArgumentException("is not " + range);
            }
            return v;
        }, v -> v);
    }

    /**
     * One of the named constants of a type (e.g. {@link org.dpdl4j.privacy.noise.NoiseKind}), parsed by its own
     * parser, whose message names the valid choices.
     */
    public static <E> ValueType<E> named(Class<E> type, String range, Function<String, E> parser, Function<E, String> name) {
        return new ValueType<>(type, range, parser, name);
    }

    /** Any non-blank text, checked later by the component that reads it. */
    public static ValueType<String> text(String range) {
        return new ValueType<>(String.class, range, t -> {
            if (t.isBlank()) {
                throw new IllegalArgumentException("is empty; give " + range);
            }
            return t.trim();
        }, v -> v);
    }

    /** A flag: true or false. */
    public static ValueType<Boolean> flag() {
        return new ValueType<>(Boolean.class, "true or false", t -> switch (t.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("must be true or false");
        }, b -> Boolean.toString(b));
    }

    private static double parseReal(String text, String range) {
        String t = text.trim();
        double v;
        try {
            v = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("is not a number; it must be " + range);
        }
        if (!Double.isFinite(v) || t.endsWith("f") || t.endsWith("F") || t.endsWith("d") || t.endsWith("D")) {
            throw new IllegalArgumentException("must be a plain finite number (" + range + ")");
        }
        return v;
    }

    /** Shortest text of a number: 1 for 1.0, 1e-05 stays as Java writes it. */
    static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e6) {
            return Long.toString((long) v);
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            // 1e12 rather than 1000000000000: exact, and readable in a message
            return new java.math.BigDecimal((long) v).stripTrailingZeros().toString().replace("E+", "e");
        }
        return Double.toString(v);
    }
}
