package org.dpdl4j.privacy.accounting;

/**
 * Gaussian noise of standard deviation {@code z * C} (per coordinate) added to a sum of contributions,
 * each of L2 norm at most {@code C}.
 *
 * <p>Under {@link NeighbouringRelation#ADD_OR_REMOVE_ONE} the L2 sensitivity is {@code C}, so the
 * mechanism is {@code (alpha, alpha / (2 z^2))}-RDP for every order, i.e. {@code 1/(2 z^2)}-zCDP.
 * Under {@link NeighbouringRelation#REPLACE_ONE} the sensitivity is {@code 2C}, giving
 * {@code 2 alpha / z^2} (i.e. {@code 2/z^2}-zCDP). {@code z = +inf} means no privacy loss and
 * {@code z = 0} means unbounded loss.
 *
 * @param noiseMultiplier {@code z >= 0}, the noise standard deviation divided by the norm bound C
 */
public record GaussianEvent(double noiseMultiplier) implements DpEvent {
    public GaussianEvent {
        if (!(noiseMultiplier >= 0)) {
            throw new IllegalArgumentException("GaussianEvent: noiseMultiplier must be >= 0 (noise std / norm bound),"
                    + " got " + noiseMultiplier + "; use +Infinity for no privacy loss");
        }
    }
}
