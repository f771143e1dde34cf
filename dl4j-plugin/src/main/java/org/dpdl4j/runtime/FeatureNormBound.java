package org.dpdl4j.runtime;

/**
 * A public bound B on every record's feature norm, which the protocols' smoothness and Lipschitz constants follow
 * instead of the private data (option {@code --feature-norm-bound}); one check of a value for all of them.
 */
public final class FeatureNormBound {
    private FeatureNormBound() {
    }

    /**
     * @return {@code bound}
     * @throws IllegalArgumentException unless it is a positive finite number
     */
    public static double require(double bound) {
        if (!(bound > 0) || Double.isInfinite(bound)) {
            throw new IllegalArgumentException("the feature norm bound B must be a positive finite number, got " + bound);
        }
        return bound;
    }
}
