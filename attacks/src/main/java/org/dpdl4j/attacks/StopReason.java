package org.dpdl4j.attacks;

/** Why an attack ended. */
public enum StopReason {
    /** All requested outer steps ran. */
    COMPLETED,
    /**
     * The gradient fell below the optimiser's tolerance: every further step would return without moving, so the
     * remaining snapshots equal the last point.
     */
    STATIONARY,
    /** The matching loss became NaN or infinite; the last point with a finite loss is reported. */
    DIVERGED,
    /** A closed-form attack: no iterations. */
    CLOSED_FORM
}
