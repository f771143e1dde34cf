package org.dpdl4j.experiments.training;

/** How a training session ended, and the exit status the command reports for it. */
public enum Outcome {
    /** Every planned step was taken. */
    COMPLETED(0),
    /** The run was priced, as {@code --dry-run} asks, and nothing was trained. */
    PRICED(0),
    /** The privacy budget stopped the run before a step that would have exceeded it; model and checkpoint are kept. */
    BUDGET_REACHED(3),
    /** A step's loss or a parameter was not a finite number; no metric of the broken model is reported. */
    DIVERGED(4);

    private final int exitCode;

    Outcome(int exitCode) {
        this.exitCode = exitCode;
    }

    /** The process exit status: 0 for a completed run, non-zero otherwise. */
    public int exitCode() {
        return exitCode;
    }
}
