package org.dpdl4j.cli;

import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.options.ValueType;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parse-time checks of the numeric options of the commands whose options are declared with annotations: the same
 * value types (and messages) as the registry's options, so every number is checked before any work starts, in
 * the user's terms ("must be a number > 0 (got -1)").
 */
public final class Converters {
    private Converters() {
    }

    private static <T> T parse(ValueType<T> type, String text) {
        try {
            return type.parser().apply(text);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + text + "' " + e.getMessage());
        }
    }

    /** A finite number > 0. */
    public static final class Positive implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return parse(ValueType.realAbove(0, 1e12), value);
        }
    }

    /** A finite number >= 0. */
    public static final class NonNegative implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return parse(ValueType.realAtLeast(0, 1e12), value);
        }
    }

    /** A number strictly between 0 and 1 (delta). */
    public static final class Probability implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return parse(ValueType.realBetween(0, 1), value);
        }
    }

    /** A whole number >= 1 that fits an int. */
    public static final class PositiveInt implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) (long) parse(ValueType.integer(1, Integer.MAX_VALUE), value);
        }
    }

    /** A whole number >= 0 that fits an int. */
    public static final class NonNegativeInt implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) (long) parse(ValueType.integer(0, Integer.MAX_VALUE), value);
        }
    }

    /** A whole number >= 1. */
    public static final class PositiveLong implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parse(ValueType.integer(1, Long.MAX_VALUE), value);
        }
    }

    /** A noise kind by its name: secure or seeded. */
    public static final class NoiseKindConverter implements ITypeConverter<NoiseKind> {
        @Override
        public NoiseKind convert(String value) {
            try {
                return NoiseKind.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
