package org.dpdl4j.attacks;

/**
 * The factor {@code c} in {@code observed = c * gradient + noise}, where the gradient is that of the mean loss
 * over the attacked batch. Examples: 1 for a released gradient; {@code B} for DL4J's summed batch gradient;
 * {@code -lr} for a model update after one SGD step. When the attacker does not know it, the attack fits a
 * positive factor; the true factor is kept for scoring only.
 *
 * @param factor          the true factor, non-zero and finite
 * @param knownToAttacker whether the attack may use it
 */
public record ObservationScale(double factor, boolean knownToAttacker) {

    public ObservationScale {
        if (factor == 0 || !Double.isFinite(factor)) {
            throw new IllegalArgumentException("observation scale must be a non-zero finite number, got " + factor);
        }
        if (!knownToAttacker && factor < 0) {
            throw new IllegalArgumentException("an unknown scale is fitted as a positive factor, but the true factor is "
                    + factor + "; negate the observed vector (the attacker knows the sign convention of updates)");
        }
    }

    /** A factor the attacker knows. */
    public static ObservationScale known(double factor) {
        return new ObservationScale(factor, true);
    }

    /** A positive factor the attacker must fit. */
    public static ObservationScale unknownPositive(double actualFactor) {
        return new ObservationScale(actualFactor, false);
    }
}
