package org.dpdl4j.optim;

/**
 * Thrown before a step that would take the privacy loss past the budget; the model is left as it was
 * after the last allowed step, so nothing already trained is lost.
 */
public final class PrivacyBudgetExceededException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final long stepsDone;
    private final double epsilonSpent;
    private final double budget;

    public PrivacyBudgetExceededException(long stepsDone, double epsilonSpent, double epsilonNext, double budget, double delta) {
        super(String.format(java.util.Locale.ROOT,
                "privacy budget reached: %d steps have spent epsilon = %.4f (delta = %.3g); one more step would bring it to"
                        + " %.4f, above the budget of %.4f. Training stopped before that step. To train longer, raise the"
                        + " budget, or calibrate the noise for more steps/epochs (a larger noise multiplier).",
                stepsDone, epsilonSpent, delta, epsilonNext, budget));
        this.stepsDone = stepsDone;
        this.epsilonSpent = epsilonSpent;
        this.budget = budget;
    }

    public long stepsDone() {
        return stepsDone;
    }

    public double epsilonSpent() {
        return epsilonSpent;
    }

    public double budget() {
        return budget;
    }
}
