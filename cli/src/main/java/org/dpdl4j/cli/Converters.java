package org.dpdl4j.cli;

import java.util.function.Function;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.options.ValueType;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parse-time checks of the numeric options of the commands whose options are declared with annotations: the same
 * value types (and messages) as the registry's options, so every number is checked before any work starts, in
 * the user's terms ("must be a number > 0 (got -1)"). Picocli instantiates a converter by its class, hence one
 * small class per value type.
 */
public final class Converters {
    private Converters() {
    }

    /** A converter by a parser whose {@link IllegalArgumentException} message says what is wrong. */
    private abstract static class Checked<T> implements ITypeConverter<T> {
        private final Function<String, T> parser;

        Checked(Function<String, T> parser) {
            this.parser = parser;
        }

        @Override
        public T convert(String value) {
            try {
                return parser.apply(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' " + e.getMessage());
            }
        }
    }

    /** A finite number > 0. */
    public static final class Positive extends Checked<Double> {
        public Positive() {
            super(ValueType.realAbove(0, 1e12).parser());
        }
    }

    /** A finite number >= 0. */
    public static final class NonNegative extends Checked<Double> {
        public NonNegative() {
            super(ValueType.realAtLeast(0, 1e12).parser());
        }
    }

    /** A number strictly between 0 and 1 (delta). */
    public static final class Probability extends Checked<Double> {
        public Probability() {
            super(ValueType.realBetween(0, 1).parser());
        }
    }

    /** A whole number >= 1 that fits an int. */
    public static final class PositiveInt extends Checked<Integer> {
        public PositiveInt() {
            super(ValueType.integer(1, Integer.MAX_VALUE).parser().andThen(Long::intValue));
        }
    }

    /** A whole number >= 0 that fits an int. */
    public static final class NonNegativeInt extends Checked<Integer> {
        public NonNegativeInt() {
            super(ValueType.integer(0, Integer.MAX_VALUE).parser().andThen(Long::intValue));
        }
    }

    /** A whole number >= 1. */
    public static final class PositiveLong extends Checked<Long> {
        public PositiveLong() {
            super(ValueType.integer(1, Long.MAX_VALUE).parser());
        }
    }

    /** A noise kind by its name: secure, seeded or philox (the message names them). */
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
