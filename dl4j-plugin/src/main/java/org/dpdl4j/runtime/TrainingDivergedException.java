package org.dpdl4j.runtime;

import java.util.Locale;

/**
 * A step measured a loss that is not a finite number: the model has diverged (or its data holds values it cannot
 * represent), so training stops instead of reporting metrics of a broken model.
 */
public final class TrainingDivergedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final long step;

    /**
     * @param step  the step (1-based) whose loss was not finite
     * @param unit  what a step is called
     * @param what  what was not finite, e.g. "loss = NaN"
     * @param hint  what to do
     */
    public TrainingDivergedException(long step, String unit, String what, String hint) {
        super(String.format(Locale.ROOT, "training diverged at %s %d: %s; %s", unit, step, what, hint));
        this.step = step;
    }

    /** The step whose loss was not finite. */
    public long step() {
        return step;
    }
}
