package org.dpdl4j.privacy.ledger;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether a delta is small enough for the number of units it protects. An (epsilon, delta) guarantee allows, with
 * probability delta, anything at all; a mechanism that publishes each of N units in the clear with probability 1/N
 * meets it when delta is at least 1/N. So delta must lie well below 1/N.
 */
public final class DeltaAdvice {
    private DeltaAdvice() {
    }

    /**
     * The warning for {@code delta} over {@code units} protected units (training examples, users): empty when delta is
     * below 1/units, else a sentence that starts with "delta ..." and names a better delta.
     */
    public static Optional<String> forUnits(double delta, long units) {
        if (units < 1 || delta < 1.0 / units) {
            return Optional.empty();
        }
        String better = 1.0 / (10.0 * units) < 1e-5
                ? String.format(Locale.ROOT, "%.0e", Math.pow(10, Math.floor(Math.log10(0.1 / units)))) : "1e-5";
        return Optional.of(String.format(Locale.ROOT, "delta %s is at least 1/N = 1/%d: an (epsilon, delta) guarantee with"
                + " such a delta allows publishing some training examples in the clear; choose delta well below 1/%d, e.g. %s",
                delta, units, units, better));
    }

    /** {@link #forUnits} as a command's warning line about its {@code --delta} option. */
    public static Optional<String> optionWarning(double delta, long units) {
        return forUnits(delta, units).map(warning -> "warning: --" + warning);
    }
}
