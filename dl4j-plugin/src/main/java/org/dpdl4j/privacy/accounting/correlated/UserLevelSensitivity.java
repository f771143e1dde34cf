package org.dpdl4j.privacy.accounting.correlated;

/** L2 sensitivities of one user's contribution in the correlated-noise protocols. */
public final class UserLevelSensitivity {
    private UserLevelSensitivity() {
    }

    /**
     * Decor, replace-one user level: a user's clipped gradient ({@code ||g|| <= C}) may be replaced by
     * another, so it moves by at most {@code 2C}.
     */
    public static double decor(double clip) {
        if (!(clip > 0) || Double.isInfinite(clip)) {
            throw new IllegalArgumentException("clipping norm C = " + clip + " must be positive and finite");
        }
        return 2.0 * clip;
    }

    /** GOPA: each private value lies in [0, 1], so replacing it moves the release by at most 1. */
    public static double gopa() {
        return 1.0;
    }
}
