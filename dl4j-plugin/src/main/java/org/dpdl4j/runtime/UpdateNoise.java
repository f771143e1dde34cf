package org.dpdl4j.runtime;

import java.util.Locale;
import java.util.Optional;

/**
 * The noise a private run adds to each averaged update, against the largest update it can carry: an average of clipped
 * vectors has norm at most their clip, while noise of std {@code s} on each of {@code p} parameters has norm about
 * {@code s sqrt(p)}. When the noise is many times the largest update, a step moves the model mostly at random and
 * training may not learn at all (DP-FedAvg with local noise on a few clients, or DP-SGD with a small batch on a large
 * network): {@link #warning()} says so before training, with the numbers.
 *
 * @param noiseStd    the noise's standard deviation on each coordinate of the averaged update
 * @param updateBound the largest norm of the averaged clipped update (the clip norm)
 * @param parameters  the number of coordinates the noise is added to
 * @param averaged    how many clipped vectors the update averages (in expectation)
 * @param vectors     what they are, in words (e.g. "clipped per-example gradients")
 */
public record UpdateNoise(double noiseStd, double updateBound, long parameters, double averaged, String vectors) {
    /** Noise this many times the largest update dwarfs it. */
    public static final double DWARFING_RATIO = 10;

    /** The expected norm of the noise vector, about {@code noiseStd sqrt(parameters)}. */
    public double noiseNorm() {
        return noiseStd * Math.sqrt(parameters);
    }

    /** The noise's norm over the largest update's. */
    public double ratio() {
        return noiseNorm() / updateBound;
    }

    /** A warning, with the numbers and what helps, when the noise dwarfs the largest update; empty otherwise. */
    public Optional<String> warning() {
        if (!(ratio() > DWARFING_RATIO)) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "The noise dwarfs the signal: the noise on every averaged update has"
                + " norm about %.3g (std %.3g on each of %,d parameters), %.0f times the largest update it is added to,"
                + " the average of an expected %s %s (norm at most %.3g). Training may not learn: average more (a larger"
                + " batch, more participants per round), use fewer parameters, or allow a larger epsilon.", noiseNorm(),
                noiseStd, parameters, ratio(), averaged == Math.rint(averaged) ? String.valueOf((long) averaged)
                        : String.format(Locale.ROOT, "%.4g", averaged), vectors, updateBound));
    }
}
