package org.dpdl4j.privacy.ledger;

import java.util.Locale;

/**
 * Thrown before a step that would take a run's ledger past its budget. Nothing of that step has happened: the
 * model, the ledger and any checkpoint are those of the last completed step, so nothing already trained is lost.
 */
public final class PrivacyBudgetExceededException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final long stepsDone;
    private final double epsilonSpent;
    private final double epsilonNext;
    private final double budget;

    /**
     * @param stepsDone    steps (rounds) completed before the refused one
     * @param epsilonSpent epsilon of the ledger now
     * @param epsilonNext  epsilon the refused step would have brought it to
     * @param budget       the budget's epsilon
     * @param delta        the delta of every epsilon
     */
    public PrivacyBudgetExceededException(long stepsDone, double epsilonSpent, double epsilonNext, double budget, double delta) {
        super(String.format(Locale.ROOT,
                "privacy budget reached: %d steps have spent epsilon = %s (delta = %s); one more step would bring it to"
                        + " %s, above the budget of %s. Training stopped before that step; the model and checkpoint are"
                        + " those of step %d. To train longer, raise the budget, or calibrate the noise for more steps"
                        + " (a larger noise multiplier).",
                stepsDone, EpsilonFormat.upward(epsilonSpent), EpsilonFormat.upwardSignificant(delta, 3),
                EpsilonFormat.upward(epsilonNext, 6), budget, stepsDone));
        this.stepsDone = stepsDone;
        this.epsilonSpent = epsilonSpent;
        this.epsilonNext = epsilonNext;
        this.budget = budget;
    }

    public long stepsDone() {
        return stepsDone;
    }

    public double epsilonSpent() {
        return epsilonSpent;
    }

    public double epsilonNext() {
        return epsilonNext;
    }

    public double budget() {
        return budget;
    }
}
