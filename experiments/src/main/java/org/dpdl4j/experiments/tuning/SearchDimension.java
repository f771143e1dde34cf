package org.dpdl4j.experiments.tuning;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.deeplearning4j.arbiter.optimize.api.ParameterSpace;
import org.deeplearning4j.arbiter.optimize.distribution.LogUniformDistribution;
import org.deeplearning4j.arbiter.optimize.parameter.continuous.ContinuousParameterSpace;
import org.deeplearning4j.arbiter.optimize.parameter.discrete.DiscreteParameterSpace;
import org.deeplearning4j.arbiter.optimize.parameter.integer.IntegerParameterSpace;

/**
 * The range of one tuned option, as an Arbiter leaf space: Arbiter hands every leaf a number in [0, 1], and the leaf
 * turns it into the option's value (uniform, log-uniform, integer, log-uniform integer, or one of a list of values).
 * Real values are rounded to 4 significant digits, so the value a candidate trains with is the one its table shows
 * and {@code train} can be given.
 *
 * @param option the option's name, as on the command line without the dashes (e.g. {@code learning-rate})
 * @param kind   how [0, 1] maps to values
 * @param min    the smallest value (numeric kinds)
 * @param max    the largest value (numeric kinds)
 * @param values the values of a {@link Kind#CHOICE}
 */
public record SearchDimension(String option, Kind kind, double min, double max, List<String> values) {

    /** How a dimension maps Arbiter's [0, 1] to values. */
    public enum Kind {
        UNIFORM("uniform"), LOG("log"), INTEGER("integer"), LOG_INTEGER("log-integer"), CHOICE("choice");

        private final String jsonName;

        Kind(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }

        static Kind parse(String name, String option) {
            for (Kind k : values()) {
                if (k.jsonName.equals(name)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("search space: '" + option + "' has the unknown range kind '" + name
                    + "'; use uniform, log, integer, log-integer (each [min, max]) or choice ([values])");
        }
    }

    public SearchDimension {
        Objects.requireNonNull(option, "option");
        Objects.requireNonNull(kind, "kind");
        values = values == null ? List.of() : List.copyOf(values);
        if (kind == Kind.CHOICE) {
            if (values.isEmpty()) {
                throw new IllegalArgumentException("search space: '" + option + "' is a choice without values; list at least one");
            }
        } else {
            if (!(Double.isFinite(min) && Double.isFinite(max) && min <= max)) {
                throw new IllegalArgumentException("search space: '" + option + "' needs finite bounds with min <= max, got ["
                        + min + ", " + max + "]");
            }
            if ((kind == Kind.LOG || kind == Kind.LOG_INTEGER) && !(min > 0)) {
                throw new IllegalArgumentException("search space: '" + option + "' is log-uniform, so its bounds must be > 0, got ["
                        + min + ", " + max + "]; use uniform for a range that includes 0");
            }
            if ((kind == Kind.INTEGER || kind == Kind.LOG_INTEGER) && (min != Math.rint(min) || max != Math.rint(max))) {
                throw new IllegalArgumentException("search space: '" + option + "' is an integer range, so its bounds must be"
                        + " whole numbers, got [" + min + ", " + max + "]");
            }
        }
    }

    public static SearchDimension uniform(String option, double min, double max) {
        return new SearchDimension(option, Kind.UNIFORM, min, max, null);
    }

    public static SearchDimension log(String option, double min, double max) {
        return new SearchDimension(option, Kind.LOG, min, max, null);
    }

    public static SearchDimension integer(String option, long min, long max) {
        return new SearchDimension(option, Kind.INTEGER, min, max, null);
    }

    public static SearchDimension logInteger(String option, long min, long max) {
        return new SearchDimension(option, Kind.LOG_INTEGER, min, max, null);
    }

    public static SearchDimension choice(String option, List<String> values) {
        return new SearchDimension(option, Kind.CHOICE, Double.NaN, Double.NaN, values);
    }

    /** A new Arbiter leaf for this dimension (each call a distinct object: Arbiter indexes leaves by identity). */
    ParameterSpace<?> leaf() {
        return switch (kind) {
            case UNIFORM -> new ContinuousParameterSpace(min, max);
            case LOG -> new ContinuousParameterSpace(new LogUniformDistribution(min, max));
            case INTEGER -> new IntegerParameterSpace((int) min, (int) max);
            // log-uniform on [min, max + 1), rounded down: every integer gets the mass of its interval
            case LOG_INTEGER -> new ContinuousParameterSpace(new LogUniformDistribution(min, max + 1));
            case CHOICE -> new DiscreteParameterSpace<>(values);
        };
    }

    /** The option's text for the leaf's value. */
    String text(Object leafValue) {
        return switch (kind) {
            case UNIFORM, LOG -> format(((Number) leafValue).doubleValue());
            case INTEGER -> Long.toString(((Number) leafValue).longValue());
            case LOG_INTEGER -> Long.toString(Math.min((long) max, (long) Math.floor(((Number) leafValue).doubleValue())));
            case CHOICE -> String.valueOf(leafValue);
        };
    }

    /** 4 significant digits, without a needless exponent or trailing zeros. */
    static String format(double value) {
        return new BigDecimal(value).round(new MathContext(4)).stripTrailingZeros().toPlainString();
    }

    @Override
    public String toString() {
        return kind == Kind.CHOICE ? option + " in " + values
                : String.format(Locale.ROOT, "%s %s [%s, %s]", option, kind.jsonName, format(min), format(max));
    }
}
