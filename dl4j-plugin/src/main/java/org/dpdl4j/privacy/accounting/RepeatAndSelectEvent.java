package org.dpdl4j.privacy.accounting;

import java.util.Objects;

/**
 * Hyperparameter tuning as one release: a random number K of candidate runs, each the mechanism {@code candidate},
 * of which only the best is released (Papernot &amp; Steinke 2022; priced by {@link RepeatAndSelect}). K follows the
 * truncated negative binomial {@code D_(eta, gamma)} with the given mean (shape = eta > -1: 0 is the logarithmic, 1
 * the geometric distribution), or the Poisson distribution (shape = +Infinity, mean >= 1).
 *
 * @param candidate one candidate run's mechanism (for example the self-composition of its training steps)
 * @param mean      E[K], the expected number of candidates (> 1; >= 1 for Poisson)
 * @param shape     eta of the truncated negative binomial, or {@link Double#POSITIVE_INFINITY} for Poisson
 */
public record RepeatAndSelectEvent(DpEvent candidate, double mean, double shape) implements DpEvent {
    public RepeatAndSelectEvent {
        Objects.requireNonNull(candidate, "candidate");
        requireDistribution(mean, shape);
    }

    /**
     * Checks a distribution of the number of candidates: shape eta > -1 with a mean > 1, or Poisson (shape +Infinity)
     * with a mean >= 1.
     */
    public static void requireDistribution(double mean, double shape) {
        if (!(shape > -1)) {
            throw new IllegalArgumentException("the number of candidates needs shape eta > -1 (or +Infinity for Poisson), got " + shape);
        }
        boolean poisson = shape == Double.POSITIVE_INFINITY;
        if (Double.isNaN(mean) || Double.isInfinite(mean) || (poisson ? mean < 1 : mean <= 1)) {
            throw new IllegalArgumentException("the expected number of candidates must be finite and " + (poisson ? ">= 1" : "> 1")
                    + ", got " + mean);
        }
    }

    /** A Poisson number of candidates with this mean. */
    public static RepeatAndSelectEvent poisson(DpEvent candidate, double mean) {
        return new RepeatAndSelectEvent(candidate, mean, Double.POSITIVE_INFINITY);
    }

    /** Whether K is Poisson. */
    public boolean isPoisson() {
        return shape == Double.POSITIVE_INFINITY;
    }

    /** The curve of the release on {@code orders}, from the candidate's curve there. */
    double[] curve(double[] orders, double[] candidateCurve) {
        return isPoisson() ? RepeatAndSelect.poisson(orders, candidateCurve, mean)
                : RepeatAndSelect.truncatedNegativeBinomial(orders, candidateCurve, shape, RepeatAndSelect.gammaForMean(shape, mean));
    }
}
