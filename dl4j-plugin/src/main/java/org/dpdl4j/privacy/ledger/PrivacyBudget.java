package org.dpdl4j.privacy.ledger;

import java.util.Locale;

/**
 * The (epsilon, delta) a run may spend. Every epsilon of the run is reported at this delta; a step that would take
 * the ledger's epsilon above {@code epsilon} is not taken. Closed-form calibrations (rho from a target epsilon and
 * back) land on the target up to the last bits of a double, so the check allows a relative excess of
 * {@value #ROUNDING} (far below any accountant's own slack); the epsilon reported is always the exact value computed.
 *
 * @param epsilon the budget, {@code > 0}; {@code +Infinity} for a run that only reports what it spent
 * @param delta   in (0, 1)
 */
public record PrivacyBudget(double epsilon, double delta) {
    /** The relative excess the budget check treats as rounding. */
    public static final double ROUNDING = 1e-12;

    public PrivacyBudget {
        if (!(epsilon > 0)) {
            throw new IllegalArgumentException("the epsilon budget must be > 0 (or unlimited), got " + epsilon);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta
                    + "; choose it well below 1 / (number of protected units), e.g. 1e-5");
        }
    }

    /**
     * The budget of a run set up from an explicit budget, a target it is calibrated to, both or neither: the explicit
     * budget if given (not NaN), else the target (not NaN), else no limit.
     */
    public static PrivacyBudget of(double budget, double targetEpsilon, double delta) {
        return new PrivacyBudget(!Double.isNaN(budget) ? budget : !Double.isNaN(targetEpsilon) ? targetEpsilon
                : Double.POSITIVE_INFINITY, delta);
    }

    /** A budget that only fixes delta: the run reports its epsilon but never stops for it. */
    public static PrivacyBudget unlimited(double delta) {
        return new PrivacyBudget(Double.POSITIVE_INFINITY, delta);
    }

    /** Whether spending {@code spent} stays within the budget (up to {@link #ROUNDING}); never for NaN. */
    public boolean allows(double spent) {
        return spent <= epsilon * (1 + ROUNDING);
    }

    /** Whether the budget can stop a run. */
    public boolean isLimited() {
        return epsilon != Double.POSITIVE_INFINITY;
    }

    @Override
    public String toString() {
        return isLimited() ? String.format(Locale.ROOT, "(epsilon = %s, delta = %s)", epsilon, delta)
                : String.format(Locale.ROOT, "(no epsilon limit, delta = %s)", delta);
    }
}
