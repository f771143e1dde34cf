package org.dpdl4j.attacks.optim;

/**
 * What one outer optimiser step did.
 *
 * @param lossAtStart objective at the point the step started from (what PyTorch's {@code step} returns)
 * @param lastLoss    objective at the last point evaluated during the step
 * @param evaluations objective evaluations (value and gradient) spent by the step
 * @param stationary  whether the step ended without moving the point; for the optimisers here every further
 *                    step would then do the same
 */
public record StepOutcome(double lossAtStart, double lastLoss, int evaluations, boolean stationary) {

    /** Whether both losses are finite numbers. */
    public boolean isFinite() {
        return Double.isFinite(lossAtStart) && Double.isFinite(lastLoss);
    }
}
