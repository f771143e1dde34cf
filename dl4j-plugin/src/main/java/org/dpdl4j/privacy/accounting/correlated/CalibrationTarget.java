package org.dpdl4j.privacy.accounting.correlated;

/**
 * What a (sigmaCdp, sigmaCor) calibration must achieve.
 *
 * @param epsilon total epsilon not to exceed
 * @param delta delta of the guarantee
 * @param steps number of steps T
 * @param sensitivity L2 sensitivity Delta of one user's per-step contribution ({@link UserLevelSensitivity})
 * @param adversary the adversary the guarantee must hold against
 * @param gridSize number of sigmaCdp values, linearly spaced on {@code [sigmaCdpCentral, sigmaLdp]}
 */
public record CalibrationTarget(double epsilon, double delta, long steps, double sensitivity, Adversary adversary, int gridSize) {
    /** The grid size of the Decor reference procedure. */
    public static final int DEFAULT_GRID_SIZE = 50;

    /** Validates. */
    public CalibrationTarget {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("target epsilon = " + epsilon + " must be positive and finite");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta = " + delta + " must lie in (0, 1)");
        }
        if (steps < 1) {
            throw new IllegalArgumentException("number of steps T = " + steps + " must be at least 1");
        }
        if (!(sensitivity > 0) || Double.isInfinite(sensitivity)) {
            throw new IllegalArgumentException("L2 sensitivity = " + sensitivity + " must be positive and finite");
        }
        if (adversary == null) {
            throw new IllegalArgumentException("adversary is missing");
        }
        if (gridSize < 2) {
            throw new IllegalArgumentException("sigma_cdp grid size = " + gridSize + " must be at least 2");
        }
    }

    /** Decor, user level: sensitivity {@code 2C}, the default grid. */
    public static CalibrationTarget decor(double epsilon, double delta, long steps, double clip, Adversary adversary) {
        return new CalibrationTarget(epsilon, delta, steps, UserLevelSensitivity.decor(clip), adversary, DEFAULT_GRID_SIZE);
    }
}
