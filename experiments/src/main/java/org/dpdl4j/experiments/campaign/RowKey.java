package org.dpdl4j.experiments.campaign;

import java.util.Locale;
import java.util.Objects;

/**
 * One row of the campaign's table: a protocol, an observer position, the epsilon its noise was calibrated to
 * ({@code +Infinity} for a non-private protocol) and an attack.
 */
public record RowKey(String algorithm, String observer, double epsilon, String attack) {

    public RowKey {
        Objects.requireNonNull(algorithm, "algorithm must not be null");
        Objects.requireNonNull(observer, "observer must not be null");
        Objects.requireNonNull(attack, "attack must not be null");
    }

    /** The epsilon as printed: {@code inf} or the number without trailing zeros. */
    public String epsilonLabel() {
        return formatEpsilon(epsilon);
    }

    /** An epsilon as printed in tables. */
    public static String formatEpsilon(double epsilon) {
        if (Double.isInfinite(epsilon)) {
            return "inf";
        }
        return epsilon == Math.rint(epsilon) ? Long.toString((long) epsilon) : String.format(Locale.ROOT, "%g", epsilon);
    }

    /** The same row for another attack. */
    public RowKey withAttack(String other) {
        return new RowKey(algorithm, observer, epsilon, other);
    }
}
