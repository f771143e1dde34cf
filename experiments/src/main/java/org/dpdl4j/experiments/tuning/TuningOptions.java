package org.dpdl4j.experiments.tuning;

import static org.dpdl4j.runtime.options.ResumeRule.FREE;

import java.util.List;
import java.util.Locale;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;
import org.dpdl4j.tuning.CandidateCount;

/** The options of a tuning: what to search, how many candidates, what the whole tuning may spend, how to score. */
public final class TuningOptions {
    private TuningOptions() {
    }

    public static final RunOption<String> SPACE = RunOption.of("space", "SPACE", ValueType.text("a preset or a JSON file"), FREE,
            "The search space: a preset (" + String.join(", ", SearchSpace.PRESETS) + ") or a JSON file, e.g."
                    + " {\"lr\": {\"log\": [0.01, 1]}, \"batch-size\": {\"log-integer\": [32, 1024]}}. A private search"
                    + " may not vary what the guarantee is (noise, epsilon, delta, epsilon-budget, adversary, unit, ...).");
    public static final RunOption<String> CANDIDATES = RunOption.of("candidates", "DIST", ValueType.checked(
                    "geometric:MEAN, logarithmic:MEAN, negative-binomial:ETA:MEAN or poisson:MEAN", TuningOptions::checkCandidates),
            FREE, "The random number of candidates: geometric:MEAN (default geometric:10), logarithmic:MEAN,"
                    + " negative-binomial:ETA:MEAN (eta > -1) or poisson:MEAN.");
    public static final RunOption<Long> POOL = RunOption.of("pool", "M", ValueType.integer(1, CandidatePool.MAX_SIZE), FREE,
            "Configurations drawn by random search before training, from which candidates are drawn; default 32.");
    public static final RunOption<String> SEARCH = RunOption.of("search", "S", ValueType.choice("random", "grid"), FREE,
            "How Arbiter fills the pool: random (default) or grid (every grid point).");
    public static final RunOption<Long> GRID_POINTS = RunOption.of("grid-points", "G", ValueType.integer(1, 1000), FREE,
            "Grid search: values per continuous option; default 3.");
    public static final RunOption<Double> EPSILON_TOTAL = RunOption.of("epsilon-total", "EPS", ValueType.realAbove(0, 1e6), FREE,
            "What the whole tuning may spend, tuning included: each candidate's --epsilon is calibrated so that the"
                    + " released best candidate stays within it.");
    public static final RunOption<Double> VALIDATION_FRACTION = RunOption.of("validation-fraction", "F",
            ValueType.realAbove(0, 0.9), FREE, "Share of the training data held out to score candidates; default 0.1.");
    public static final RunOption<Double> SCORE_NOISE = RunOption.of("score-noise", "SIGMA", ValueType.realAtLeast(0, 1e9), FREE,
            "Standard deviation of the Gaussian noise on a candidate's count of correct validation predictions (its cost is"
                    + " in the bound); default 20. Must be > 0 for private tuning.");
    public static final RunOption<String> TUNING_DATA = RunOption.of("tuning-data", "KIND", ValueType.choice("private", "public"),
            FREE, "private (default): the cost of tuning is accounted and the best candidate is the released model;"
                    + " public: the data is declared public (or held out of the private data), nothing is accounted, and"
                    + " the best configuration is saved for train.");

    /** Every tuning option. */
    public static List<RunOption<?>> all() {
        return List.of(SPACE, CANDIDATES, POOL, SEARCH, GRID_POINTS, EPSILON_TOTAL, VALIDATION_FRACTION, SCORE_NOISE, TUNING_DATA);
    }

    /** The distribution a {@link #CANDIDATES} text names. */
    public static CandidateCount candidates(String text) {
        String[] parts = text.toLowerCase(Locale.ROOT).split(":");
        try {
            return switch (parts[0]) {
                case "geometric" -> CandidateCount.geometric(number(parts, 1, 2));
                case "logarithmic" -> CandidateCount.logarithmic(number(parts, 1, 2));
                case "poisson" -> CandidateCount.poisson(number(parts, 1, 2));
                case "negative-binomial" -> CandidateCount.truncatedNegativeBinomial(number(parts, 1, 3), number(parts, 2, 3));
                default -> throw new IllegalArgumentException("unknown distribution '" + parts[0] + "'");
            };
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--candidates " + text + ": " + e.getMessage() + "; use geometric:MEAN,"
                    + " logarithmic:MEAN, negative-binomial:ETA:MEAN or poisson:MEAN, e.g. geometric:10", e);
        }
    }

    /** The canonical text of a valid distribution; throws (with the reason) for an invalid one. */
    private static String checkCandidates(String text) {
        candidates(text);
        return text.toLowerCase(Locale.ROOT);
    }

    private static double number(String[] parts, int index, int length) {
        if (parts.length != length) {
            throw new IllegalArgumentException("expected " + (length - 1) + " number(s) after the name");
        }
        try {
            return Double.parseDouble(parts[index]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + parts[index] + "' is not a number");
        }
    }
}
