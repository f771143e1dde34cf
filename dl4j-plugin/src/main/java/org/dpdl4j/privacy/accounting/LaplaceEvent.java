package org.dpdl4j.privacy.accounting;

/**
 * Laplace noise of scale {@code b = z * C} per coordinate added to a sum of contributions, each of
 * L1 norm at most {@code C}.
 *
 * <p>It is pure {@code eps}-DP with {@code eps = 1/z} under {@link NeighbouringRelation#ADD_OR_REMOVE_ONE}
 * (L1 sensitivity C) and {@code eps = 2/z} under {@link NeighbouringRelation#REPLACE_ONE} (sensitivity 2C);
 * the RDP accountant uses its exact RDP curve (Mironov 2017, Prop. 6). {@code z = +inf} means no loss.
 *
 * @param noiseMultiplier {@code z >= 0}, the Laplace scale divided by the L1 norm bound C
 */
public record LaplaceEvent(double noiseMultiplier) implements DpEvent {
    public LaplaceEvent {
        if (!(noiseMultiplier >= 0)) {
            throw new IllegalArgumentException("LaplaceEvent: noiseMultiplier must be >= 0 (Laplace scale / L1 bound),"
                    + " got " + noiseMultiplier + "; use +Infinity for no privacy loss");
        }
    }

    /** The pure-DP epsilon of one release under the given relation: {@code 1/z} or {@code 2/z}. */
    public double pureEpsilon(NeighbouringRelation relation) {
        double sensitivityFactor = relation == NeighbouringRelation.REPLACE_ONE ? 2.0 : 1.0;
        return noiseMultiplier == Double.POSITIVE_INFINITY ? 0.0 : sensitivityFactor / noiseMultiplier;
    }
}
